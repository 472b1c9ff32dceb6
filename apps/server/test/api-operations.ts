import type { FastifyInstance } from 'fastify';

/** The parts of the API description's JSON schemas the fuzz pass and the cross-tenant sweep read. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  nullable?: boolean;
}
export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  schema?: JsonSchema;
}
export interface Operation {
  method: 'GET' | 'POST';
  path: string;
  parameters: Parameter[];
  body: JsonSchema | null;
}

/** Every GET and POST operation the API describes on `host`, the description's own pages aside. */
export async function apiOperations(app: FastifyInstance, host: string): Promise<Operation[]> {
  const doc = (await app.inject({ method: 'GET', url: '/api/docs/json', headers: { host } })).json();
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    if (path.startsWith('/api/docs')) continue;
    for (const [method, op] of Object.entries(item)) {
      if (method !== 'get' && method !== 'post') continue;
      operations.push({
        method: method.toUpperCase() as 'GET' | 'POST',
        path,
        parameters: (op.parameters ?? []) as Parameter[],
        body: (op.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined) ?? null,
      });
    }
  }
  return operations;
}
