import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { createTestDatabase } from './harness.js';
import { committedWebApiTypes, servedOpenApiDocument, webApiTypes } from './web-api-types.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("the web's generated API types", () => {
  it('match the routes the server has now (else run `npm run gen:api` and commit src/web/lib/api-paths.ts)', async () => {
    const doc = await servedOpenApiDocument(database);
    const generated = await webApiTypes(doc);
    expect(generated).toContain("'/api/account/email'");
    expect(await committedWebApiTypes(), 'src/web/lib/api-paths.ts is stale: run `npm run gen:api`').toBe(
      generated,
    );

    // The check bites: a route renamed in the document gives another file.
    const renamed = structuredClone(doc);
    const paths = renamed.paths ?? {};
    paths['/api/account/e-mail'] = paths['/api/account/email']!;
    delete paths['/api/account/email'];
    expect(await webApiTypes(renamed)).not.toBe(generated);
  }, 120_000);
});
