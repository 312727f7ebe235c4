import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZBilingual } from '#shared/contract/common.js';
import { ZErrorBody } from '#shared/contract/errors.js';
import { ZApiWorkflow } from '#shared/contract/public-api.js';
import { ZSurveyQuestion } from '#shared/contract/workflows.js';
import type { App } from '../types.js';
import { finishOpenApiDocument, SECURITY_SCHEMES, type OpenApiDocument } from './openapi-document.js';
import { SWAGGER_UI_BUILD_FOLDER } from './swagger-ui-files.js';

// The shapes many routes share are named once in the document's components and referred to where they are used
// (and the typed web client generated from the document names one type instead of repeating it per route).
const NAMED_SCHEMAS = [
  [ZErrorBody, 'ErrorBody'],
  [ZBilingual, 'Bilingual'],
  [ZSurveyQuestion, 'SurveyQuestion'],
  [ZApiWorkflow, 'ApiWorkflow'],
] as const;
for (const [schema, id] of NAMED_SCHEMAS) {
  if (!z.globalRegistry.has(schema)) z.globalRegistry.add(schema, { id });
}

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
      const doc = jsonSchemaTransformObject(documentObject) as unknown as OpenApiDocument;
      return finishOpenApiDocument(doc, publicUrl) as unknown as typeof documentObject.openapiObject;
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // The package's policy always asks the browser to load everything over https, which leaves the page blank
    // on a site served over plain http; like the app's own pages, it asks only when PUBLIC_URL is https.
    ...(publicUrl.startsWith('https://')
      ? {}
      : { transformStaticCSP: (header: string) => header.replace(/\s*upgrade-insecure-requests;?/, '') }),
  });
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
