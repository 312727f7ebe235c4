// `npm run gen:api`: writes src/web/lib/api-paths.ts, the web's types of every route, from the OpenAPI
// document the server builds (on a throwaway in-memory database).
import { writeFile } from 'node:fs/promises';
import { openDatabase } from '../src/server/db/client.js';
import {
  committedWebApiTypes,
  servedOpenApiDocument,
  WEB_API_TYPES_FILE,
  webApiTypes,
} from '../src/server/test/web-api-types.js';

const database = await openDatabase({ kind: 'pglite' });
try {
  const text = await webApiTypes(await servedOpenApiDocument(database));
  if (text === (await committedWebApiTypes())) {
    console.log(`${WEB_API_TYPES_FILE} is up to date`);
  } else {
    await writeFile(WEB_API_TYPES_FILE, text);
    console.log(`wrote ${WEB_API_TYPES_FILE}`);
  }
} finally {
  await database.close();
}
