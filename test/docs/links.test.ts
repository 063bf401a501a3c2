/**
 * Every relative link in the repository's Markdown documents points at a file or folder that exists,
 * inside the repository. Links with a scheme (https:, mailto:...) and pure #anchors are not checked;
 * a link's #fragment and ?query are ignored. Code (fenced blocks and `spans`) is not scanned.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SKIPPED_FOLDERS = new Set([
  'node_modules',
  '.cache',
  'cdk.out',
  '.git',
  '.data',
  '.scratch',
  'coverage',
]);

/** Tracked and new (not ignored) Markdown files; a folder walk when git is not available. */
function markdownFiles(): string[] {
  try {
    const out = execFileSync(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', '*.md'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const files = out.split('\0').filter((f) => f !== '' && existsSync(join(ROOT, f)));
    return [...new Set(files)].sort();
  } catch {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        const path = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) walk(path);
        else if (entry.isFile() && entry.name.endsWith('.md')) found.push(path);
      }
    };
    walk('');
    return found.sort();
  }
}

/** The text with code blocks and code spans blanked out (newlines kept, so line numbers still hold). */
function withoutCode(markdown: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  const lines = markdown.split('\n');
  let fence: string | undefined;
  const kept = lines.map((line) => {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && opener) {
      fence = opener;
      return blank(line);
    }
    if (fence !== undefined) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      return blank(line);
    }
    return line;
  });
  return kept.join('\n').replace(/(`+)[\s\S]*?\1/g, blank);
}

interface Link {
  target: string;
  line: number;
}

/** Inline links and images `[text](target "title")`, and reference definitions `[id]: target`. */
function extractLinks(markdown: string): Link[] {
  const text = withoutCode(markdown);
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const links: Link[] = [];
  const inline =
    /!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>\n]*>|[^\s)]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*\)/g;
  for (const m of text.matchAll(inline)) links.push({ target: m[1]!, line: lineOf(m.index) });
  const definition = /^ {0,3}\[[^\]\n]+\]:\s*(<[^>\n]*>|\S+)/gm;
  for (const m of text.matchAll(definition)) links.push({ target: m[1]!, line: lineOf(m.index) });
  return links.map((l) => ({ ...l, target: l.target.replace(/^<|>$/g, '') }));
}

/** The repository path a link points at, or undefined when it is not a relative link. */
function linkedPath(document: string, target: string): string | undefined {
  if (target === '' || target.startsWith('#')) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return undefined;
  const path = decodeURIComponent(target.replace(/[#?].*$/, ''));
  if (path === '') return undefined;
  // A leading slash means the repository root, as on GitHub.
  return path.startsWith('/') ? join(ROOT, path) : resolve(ROOT, dirname(document), path);
}

function brokenLinks(document: string): string[] {
  const problems: string[] = [];
  for (const { target, line } of extractLinks(readFileSync(join(ROOT, document), 'utf8'))) {
    const path = linkedPath(document, target);
    if (path === undefined) continue;
    const inside = relative(ROOT, path);
    if (inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
      problems.push(`${document}:${line}: ${target} points outside the repository`);
    } else if (!existsSync(path)) {
      problems.push(`${document}:${line}: ${target} does not exist`);
    }
  }
  return problems;
}

/** Top-level folders whose paths, named in a code span, must exist: docs name the code as it is. */
const CODE_ROOTS = [
  'core',
  'functions',
  'engine-container',
  'lib',
  'bin',
  'local',
  'scripts',
  'test',
  'docs',
];

/** Repository paths named in `code spans` (e.g. `core/http.ts`) that do not exist. */
function missingCodePaths(document: string): string[] {
  const markdown = readFileSync(join(ROOT, document), 'utf8');
  const problems: string[] = [];
  for (const m of markdown.matchAll(/`([\w./-]+)`/g)) {
    const path = m[1]!.replace(/[.,:]$/, '');
    const top = path.split('/')[0]!;
    if (!CODE_ROOTS.includes(top) || !path.includes('/') || /[*{}]/.test(path)) continue;
    if (!existsSync(join(ROOT, path))) problems.push(`${document}: \`${path}\` does not exist`);
  }
  return problems;
}

const documents = markdownFiles();

describe('Markdown links', () => {
  it('finds the repository documents, the README among them', () => {
    expect(documents).toContain('README.md');
  });

  it('reads inline links, images and reference definitions, but not links inside code', () => {
    const links = extractLinks(
      [
        'See [the design](docs/design.md#caches) and ![a chart](img/chart.svg "chart").',
        '[ref]: ../other.md',
        '`[not a link](missing.md)`',
        '```',
        '[also not](missing.md)',
        '```',
      ].join('\n'),
    );
    expect(links).toEqual([
      { target: 'docs/design.md#caches', line: 1 },
      { target: 'img/chart.svg', line: 1 },
      { target: '../other.md', line: 2 },
    ]);
  });

  it('checks relative links only, without their fragment', () => {
    expect(linkedPath('docs/a.md', 'https://example.com/x.md')).toBeUndefined();
    expect(linkedPath('docs/a.md', 'mailto:dev@example.com')).toBeUndefined();
    expect(linkedPath('docs/a.md', '#configuration')).toBeUndefined();
    expect(linkedPath('docs/a.md', 'b.md#part')).toBe(join(ROOT, 'docs', 'b.md'));
    expect(linkedPath('docs/a.md', '../core/')).toBe(join(ROOT, 'core'));
  });

  it.each(documents)(
    'every relative link in %s resolves to a file or folder of the repository',
    (document) => {
      expect(brokenLinks(document)).toEqual([]);
    },
  );
});

describe('Paths named in the docs', () => {
  it.each(documents)('every repository path %s names in a code span exists', (document) => {
    expect(missingCodePaths(document)).toEqual([]);
  });
});
