/**
 * The OpenAPI documents are built from the route tables: every route of a table is an operation of its
 * document, with the schemas its handler validates with, and every example in it passes them.
 */
import { describe, expect, it } from 'vitest';
import { routesFor } from '../../core/http';
import { documentOf, tables } from './route-tables';

const methodOf = (m: string) => m.toLowerCase() as 'get';

describe.each(tables)('the $service API document', (table) => {
  const doc = documentOf(table);

  it('is OpenAPI 3.1 with the title of its service', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe(table.info.title);
  });

  it('has an operation for every route of the table, and no other', () => {
    const routes = routesFor(table.routes, 'test').map((r) => `${r.method} ${r.path}`);
    const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      ['get', 'post', 'put', 'delete', 'patch']
        .filter((m) => m in item)
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(routes.sort());
    expect(routes).toContain('GET /openapi.json');
  });

  it('documents every route with a summary, its answers and its path parameters', () => {
    for (const route of table.routes) {
      expect(route.doc, `${route.method} ${route.path}`).toBeDefined();
      const op = doc.paths?.[route.path]?.[methodOf(route.method)];
      expect(op?.summary).toBeTruthy();
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const documented = (op?.parameters ?? []).flatMap((p) =>
        'in' in p && p.in === 'path' ? [p.name] : [],
      );
      expect(documented.sort()).toEqual(names.sort());
      for (const name of names)
        expect(route.doc?.example?.params?.[name], `${route.path} ${name}`).toBeDefined();
    }
  });

  it("gives every body an example that the route's own schemas accept", () => {
    for (const route of table.routes) {
      const d = route.doc!;
      for (const [name, value] of Object.entries(d.example?.params ?? {}))
        expect(d.params?.[name]?.safeParse(value).success, `${route.path} ${name}=${value}`).toBe(true);
      if (!d.body) continue;
      const parsed = d.body.safeParse(d.example?.body);
      expect(parsed.success, `${route.method} ${route.path}: ${JSON.stringify(parsed.error?.issues)}`).toBe(
        true,
      );
      const media = doc.paths?.[route.path]?.[methodOf(route.method)]?.requestBody;
      expect(media && 'content' in media ? media.content['application/json']?.example : undefined).toEqual(
        d.example?.body,
      );
    }
  });
});

it('leaves out the routes of other stages: POST /token is not in the prod document', () => {
  const channel = tables.find((t) => t.service === 'channel')!;
  expect(documentOf(channel, 'test').paths?.['/token']).toBeDefined();
  expect(documentOf(channel, 'prod').paths?.['/token']).toBeUndefined();
});
