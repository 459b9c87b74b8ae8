import { tool, ToolSet } from 'ai';
import { z } from 'zod';
import { CheckoutFs, ToolError } from './checkout-fs';

const path = z.string().max(1000).describe('Path relative to the repository root, e.g. "docs/intro.md".');

/**
 * The six tools of the agent execution contract over one checkout. Refusals and failures come back to
 * the model as a result starting with "Error:", so it can correct itself; `beforeEach` runs before any
 * tool touches the checkout (it throws once the turn is no longer wanted).
 */
export function createAgentTools(fs: CheckoutFs, beforeEach: () => void): ToolSet {
  const run = async (action: () => Promise<string>): Promise<string> => {
    beforeEach();
    try {
      return await action();
    } catch (err) {
      if (err instanceof ToolError) return `Error: ${err.message}`;
      const code = (err as NodeJS.ErrnoException)?.code;
      if (typeof code === 'string') return `Error: the file system refused (${code}).`;
      throw err;
    }
  };

  return {
    list_files: tool({
      description: 'List the files under a directory of the repository, recursively (default: the whole repository).',
      inputSchema: z.object({ path: path.optional() }),
      execute: ({ path }) => run(() => fs.listFiles(path)),
    }),
    read_file: tool({
      description: 'Read a text file of the repository.',
      inputSchema: z.object({ path }),
      execute: ({ path }) => run(() => fs.readFile(path)),
    }),
    write_file: tool({
      description: 'Create a file or replace its whole content. Parent directories are created as needed.',
      inputSchema: z.object({ path, content: z.string() }),
      execute: ({ path, content }) => run(() => fs.writeFile(path, content)),
    }),
    edit_file: tool({
      description: 'Replace one exact occurrence of old_string with new_string in a file. old_string must occur exactly once; include enough surrounding text.',
      inputSchema: z.object({ path, old_string: z.string(), new_string: z.string() }),
      execute: ({ path, old_string, new_string }) => run(() => fs.editFile(path, old_string, new_string)),
    }),
    delete_file: tool({
      description: 'Delete a file of the repository.',
      inputSchema: z.object({ path }),
      execute: ({ path }) => run(() => fs.deleteFile(path)),
    }),
    search_files: tool({
      description: 'Search the text files of the repository for a literal, case-sensitive substring. Returns "path:line: text" per match.',
      inputSchema: z.object({ query: z.string().min(1).max(1000) }),
      execute: ({ query }) => run(() => fs.searchFiles(query)),
    }),
  };
}
