import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { App } from '../types.js';
import { finishOpenApiDocument, SECURITY_SCHEMES, type OpenApiDocument } from './openapi-document.js';
import { SWAGGER_UI_BUILD_FOLDER } from './swagger-ui-files.js';

/**
 * OpenAPI document generated from the routes' zod schemas, browsable at /api/docs. The page's files come from
 * the web build in `webDir` when it holds them (swagger-ui-files.ts), precompressed like the app's own.
 */
export async function registerDocs(app: App, publicUrl: string, webDir: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Flujo API',
        version: '1.0.0',
        description: 'Credit-based marketplace for automation workflows',
      },
      // Declared up front too: @fastify/swagger resolves the schemes routes name while it builds.
      components: { securitySchemes: structuredClone(SECURITY_SCHEMES) },
    },
    transform: jsonSchemaTransform,
    // The generated document is typed loosely by @fastify/swagger; the finishing pass reads the fields it edits.
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      const doc = documentObject.openapiObject as unknown as OpenApiDocument;
      return finishOpenApiDocument(doc, publicUrl) as unknown as typeof documentObject.openapiObject;
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  const built = join(webDir, SWAGGER_UI_BUILD_FOLDER);
  if (existsSync(built)) {
    // One route per file: an exact path is chosen before the package's own `/api/docs/static/*`, which still
    // answers for anything else (and for every file when the build has no copies).
    await app.register(fastifyStatic, {
      root: built,
      prefix: '/api/docs/static/',
      wildcard: false,
      index: false,
      decorateReply: false,
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
    });
  }
}
