import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { App } from '../types.js';

/** OpenAPI document generated from the routes' zod schemas, browsable at /api/docs. */
export async function registerDocs(app: App): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Flujo API',
        version: '1.0.0',
        description: 'Credit-based marketplace for automation workflows',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}
