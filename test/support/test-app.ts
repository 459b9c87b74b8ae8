import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app';
import { Config, loadConfig } from '../../src/config/config';

export const ADMIN_TOKEN = 'test-operator-token-0123456789';

export interface TestApp {
  app: NestFastifyApplication;
  config: Config;
  /** Base URL of the listening server, e.g. http://127.0.0.1:41234 */
  url: string;
  request(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<TestResponse>;
  /** A fresh project with its admin key; every suite makes its own, so suites share nothing. */
  createProject(body?: Record<string, unknown>): Promise<{ projectId: string; apiKey: string }>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

/**
 * Boots the whole app on real embedded engines (chDB + PGlite) in a temp DATA_DIR, listening on a
 * random loopback port. Pass env overrides as strings, exactly as an operator would set them.
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'docent-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN, LOG_LEVEL: 'silent', WORKER: 'off', ...env });
  const app = await createApp(config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;

  const request: TestApp['request'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  return {
    app,
    config,
    url,
    request,
    async createProject(body = {}) {
      const res = await request('POST', '/v1/projects', { token: ADMIN_TOKEN, body: { name: 'test', ...body } });
      if (res.status !== 201) throw new Error(`createProject: ${res.status} ${res.text}`);
      return { projectId: res.body.project.id, apiKey: res.body.apiKey };
    },
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
