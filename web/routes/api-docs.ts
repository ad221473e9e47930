// The API's description: /openapi.json for programs (OpenAPI 3.1, web/openapi.ts) and /api, the same
// document rendered for people: each endpoint with its parameters and limits, each answer's fields.

import type { Router } from 'express';
import { routeGroup } from './router.js';
import type { AppContext } from '../context.js';
import { openApiDocument } from '../openapi.js';

interface FieldRow {
  name: string;
  type: string;
  description: string;
}

type Schema = Record<string, unknown>;

/** A schema's type in a word or two: `string`, `integer`, `array of Hit`, `Explanation`. */
function typeName(s: Schema): string {
  if (typeof s.$ref === 'string') return s.$ref.replace('#/components/schemas/', '');
  if (s.type === 'array') return `array of ${s.items && typeof s.items === 'object' ? typeName(s.items as Schema) : 'values'}`;
  if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object') return `map to ${typeName(s.additionalProperties as Schema)}`;
  return typeof s.type === 'string' ? s.type : 'value';
}

/** The fields of each named schema, for the page. */
export function schemaTables(doc: Schema): { name: string; description: string; fields: FieldRow[] }[] {
  const schemas = ((doc.components as Schema).schemas ?? {}) as Record<string, Schema>;
  return Object.entries(schemas).map(([name, s]) => {
    const required = new Set((s.required as string[] | undefined) ?? []);
    const props = (s.properties ?? {}) as Record<string, Schema>;
    return {
      name,
      description: typeof s.description === 'string' ? s.description : '',
      fields: Object.entries(props).map(([field, p]) => ({
        name: required.has(field) ? field : `${field} (optional)`,
        type: typeName(p),
        description: typeof p.description === 'string' ? p.description : '',
      })),
    };
  });
}

export function apiDocsRoutes(ctx: AppContext): Router {
  const router = routeGroup();
  const doc = openApiDocument(ctx.options);

  router.get('/openapi.json', (_req, res) => {
    res.json(doc);
  });

  router.get('/api', (_req, res) => {
    res.render('api', { title: 'JSON API', q: '', doc, tables: schemaTables(doc) });
  });

  return router;
}
