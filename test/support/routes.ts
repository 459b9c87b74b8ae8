import type { FastifyInstance } from 'fastify';

export interface Route {
  method: string;
  path: string;
}

/** Turns Fastify's route tree (printRoutes) into method + full path pairs. */
export function routesOf(fastify: FastifyInstance): Route[] {
  const stack: string[] = [];
  const routes: Route[] = [];
  for (const line of fastify.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    if (!m[3]) continue;
    const path = stack.join('');
    for (const method of m[3].split(', ')) routes.push({ method, path });
  }
  return routes;
}
