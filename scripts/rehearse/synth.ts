/**
 * `cdk synth` of one stage into the rehearsal's own folder. The folder is inside the repository on
 * purpose: the bundles leave `@aws-sdk/*` to the Lambda runtime, and from here Node finds the
 * repository's SDK in node_modules, the stand-in for the one the runtime provides.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const REHEARSAL_DIR = join(import.meta.dirname, '../../.cache/rehearsal');

export interface Synthesized {
  stage: 'test' | 'prod';
  outDir: string;
  templatePath: string;
}

export async function synth(stage: 'test' | 'prod', timeoutMs = 420_000): Promise<Synthesized> {
  const outDir = join(REHEARSAL_DIR, `cdk.${stage}`);
  await run('npx', ['cdk', 'synth', '-q', '-c', `stage=${stage}`, '-o', outDir], {
    cwd: join(import.meta.dirname, '../..'),
    timeout: timeoutMs,
    maxBuffer: 16 * 1024 * 1024,
  });
  const manifest = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { type: string; properties?: { templateFile?: string } }>;
  };
  const stack = Object.values(manifest.artifacts).find((a) => a.type === 'aws:cloudformation:stack');
  const templateFile = stack?.properties?.templateFile;
  if (!templateFile) throw new Error(`no stack template in ${outDir}/manifest.json`);
  return { stage, outDir, templatePath: join(outDir, templateFile) };
}
