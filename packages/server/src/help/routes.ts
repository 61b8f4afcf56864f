import fs from 'node:fs';
import path from 'node:path';
import { AppError, Codes, HELP_ROUTES } from '@beacon/protocol';
import type { App } from '../http/types.ts';

/** docs/protocol/asyncapi.yaml of the repository (absent from an install without the docs: 404). */
const ASYNCAPI = path.resolve(import.meta.dirname, '../../../../docs/protocol/asyncapi.yaml');

/**
 * The help centre's documents, public like the API description: the device protocol that device
 * makers implement (generated from packages/protocol/src/device, docs/protocol/README.md).
 */
export async function helpRoutes(app: App): Promise<void> {
  const document = fs.existsSync(ASYNCAPI) ? fs.readFileSync(ASYNCAPI, 'utf8') : null;
  app.get(
    HELP_ROUTES.deviceProtocol.path,
    {
      schema: {
        tags: ['help'],
        summary: 'The device protocol (AsyncAPI 3.0, YAML) for device makers',
        produces: ['application/yaml'],
      },
    },
    async (_request, reply) => {
      if (document === null) throw new AppError(Codes.NOT_FOUND);
      return reply
        .type('application/yaml; charset=utf-8')
        .header('content-disposition', 'inline; filename="beacon-device-protocol.yaml"')
        .send(document);
    },
  );
}
