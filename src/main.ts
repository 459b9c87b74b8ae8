import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/config';
import { createApp } from './app';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const app = await createApp(config);
  await app.listen({ port: config.PORT, host: config.HOST });
}

void main().catch((err: unknown) => {
  process.stderr.write(`Docent failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
