/**
 * The console's build: esbuild bundles console/src (preact + hls.js) into one script, and the static
 * pages, the stylesheet and the API reference renderer (swagger-ui-dist, served from here, never
 * fetched from the internet) are copied next to it. `npm start` builds into a temporary folder; the
 * CDK stack builds at synth and deploys the folder to S3 (lib/console-site.ts).
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';

const HERE = import.meta.dirname;
const SWAGGER_UI = resolve(HERE, '../node_modules/swagger-ui-dist');

/** Builds the console into `outDir` (created); the files are served as they are. */
export function buildConsole(outDir: string): string {
  mkdirSync(join(outDir, 'api'), { recursive: true });
  buildSync({
    entryPoints: [join(HERE, 'src/main.tsx')],
    outfile: join(outDir, 'app.js'),
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'linked',
    logLevel: 'warning',
  });
  for (const file of ['index.html', 'app.css']) cpSync(join(HERE, 'static', file), join(outDir, file));
  cpSync(join(HERE, 'static/api-reference.html'), join(outDir, 'api/index.html'));
  for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE', 'NOTICE'])
    cpSync(join(SWAGGER_UI, file), join(outDir, 'api', file));
  return outDir;
}
