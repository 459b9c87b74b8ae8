import 'reflect-metadata';
import { loadConfigOrExit } from './config/config';
import { createApp } from './app';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const app = await createApp(config);
  await app.listen({ port: config.PORT, host: config.HOST });
}

void main().catch((err: unknown) => {
  process.stderr.write(`Docent failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
