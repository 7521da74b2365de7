// Native API: container CORS (issue 26, part 4), OPTIONS as Swift's proxy answers it.
import type { Req, Row } from '../types.js';
import { n, PUT } from './helpers.js';

const CORS_C = (origin: string): Req[] => [PUT('/{c}', { headers: { 'X-Container-Meta-Access-Control-Allow-Origin': origin, 'X-Container-Meta-Access-Control-Max-Age': '300' } })];
const options = (path: string, headers: Record<string, string>): Req => ({ method: 'OPTIONS', path, as: 'anonymous', headers });

export const NATIVE_CORS_ROWS: Row[] = [
  n('cors.preflight.match', options('/{c}/obj', { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' }), { setup: CORS_C('https://a.example https://b.example') }),
  n('cors.preflight.any', options('/{c}', { Origin: 'https://z.example', 'Access-Control-Request-Method': 'PUT' }), { setup: CORS_C('*') }),
  n('cors.preflight.wrong-origin', options('/{c}/obj', { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' }), { setup: CORS_C('https://a.example') }),
  n('cors.preflight.wrong-method', options('/{c}/obj', { Origin: 'https://a.example', 'Access-Control-Request-Method': 'PATCH' }), { setup: CORS_C('https://a.example') }),
  n('cors.preflight.no-cors', options('/{c}/obj', { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' }), { setup: [PUT('/{c}')] }),
  n('cors.options.plain', options('/{c}/obj', {}), { setup: [PUT('/{c}')] }),
];
