import { buildAsyncApi } from '@beacon/protocol';
import { stringify } from 'yaml';

/** The text of docs/protocol/asyncapi.yaml, generated from the protocol's zod schemas. */
export function renderAsyncApi(): string {
  const header = [
    '# Beacon device protocol (AsyncAPI 3.0).',
    '# GENERATED from packages/protocol/src/device by `npm run asyncapi -w @beacon/agent`; do not edit by hand.',
    '# A unit test (packages/agent/src/asyncapi.test.ts) fails when this file and the schemas disagree.',
    '',
  ].join('\n');
  return header + stringify(buildAsyncApi(), { lineWidth: 0, aliasDuplicateObjects: false });
}
