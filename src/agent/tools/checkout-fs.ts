import { lstat, mkdir, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

/** A refusal or failure the model should read as a tool result (never a crash of the turn). */
export class ToolError extends Error {}

export const LIMITS = {
  readBytes: 512 * 1024,
  writeBytes: 2 * 1024 * 1024,
  listEntries: 1000,
  searchFileBytes: 1024 * 1024,
  searchMatches: 200,
  searchLineChars: 300,
};

/**
 * File operations confined to one checkout directory. Every path is relative to the checkout; `..`,
 * absolute paths, anything through `.git` and symlinks resolving outside the checkout are refused.
 */
export class CheckoutFs {
  private constructor(
    private readonly root: string,
    /** realpath of root: symlinks are judged against it. */
    private readonly realRoot: string,
  ) {}

  static async open(root: string): Promise<CheckoutFs> {
    return new CheckoutFs(root, await realpath(root));
  }

  /** Maps a model-supplied path to an absolute path inside the checkout, or throws ToolError. */
  async resolve(input: string | undefined, options: { allowRoot?: boolean } = {}): Promise<{ abs: string; rel: string }> {
    const raw = (input ?? '').trim();
    if (raw.includes('\0')) throw new ToolError('The path contains a NUL byte.');
    if (isAbsolute(raw) || /^[a-zA-Z]:[\\/]/.test(raw) || raw.startsWith('\\')) {
      throw new ToolError(`"${raw}" is an absolute path; use a path relative to the repository root.`);
    }
    const segments = raw.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
    if (segments.includes('..')) throw new ToolError(`"${raw}" contains "..": paths may not leave the repository.`);
    if (segments.some((s) => s.toLowerCase() === '.git')) throw new ToolError(`"${raw}" is inside .git, which is off limits.`);
    if (segments.length === 0 && !options.allowRoot) throw new ToolError('A file path is required.');

    const rel = segments.join('/');
    const abs = join(this.root, ...segments);
    await this.assertRealPathInside(abs, raw);
    return { abs, rel };
  }

  /** Follows symlinks on the deepest existing part of the path; its real location must stay in the checkout, outside .git. */
  private async assertRealPathInside(abs: string, raw: string): Promise<void> {
    let probe = abs;
    for (;;) {
      let real: string | null = null;
      try {
        real = await realpath(probe);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        // A dangling symlink: its target is unknown territory.
        if (await lstat(probe).then(() => true, () => false)) throw new ToolError(`"${raw}" is a symbolic link to a missing target.`);
      }
      if (real !== null) {
        const inside = relative(this.realRoot, real);
        if (inside === '') return;
        if (inside.startsWith('..') || isAbsolute(inside)) throw new ToolError(`"${raw}" resolves outside the repository (through a symbolic link).`);
        if (inside.split(sep)[0].toLowerCase() === '.git') throw new ToolError(`"${raw}" resolves into .git, which is off limits.`);
        return;
      }
      const parent = join(probe, '..');
      if (parent === probe || relative(this.root, parent).startsWith('..')) return;
      probe = parent;
    }
  }

  async readFile(path: string): Promise<string> {
    const { abs, rel } = await this.resolve(path);
    const info = await statOrNull(abs);
    if (!info) throw new ToolError(`${rel} does not exist.`);
    if (info.isDirectory()) throw new ToolError(`${rel} is a directory; use list_files.`);
    if (info.size > LIMITS.readBytes) throw new ToolError(`${rel} is ${info.size} bytes, over the ${LIMITS.readBytes}-byte read limit.`);
    const buffer = await readFile(abs);
    if (isBinary(buffer)) throw new ToolError(`${rel} is a binary file.`);
    return buffer.toString('utf8');
  }

  async writeFile(path: string, content: string): Promise<string> {
    const { abs, rel } = await this.resolve(path);
    if (Buffer.byteLength(content) > LIMITS.writeBytes) throw new ToolError(`The content is over the ${LIMITS.writeBytes}-byte write limit.`);
    const info = await statOrNull(abs);
    if (info?.isDirectory()) throw new ToolError(`${rel} is a directory.`);
    await mkdir(join(abs, '..'), { recursive: true });
    await writeFile(abs, content, 'utf8');
    return `${info ? 'Updated' : 'Created'} ${rel} (${Buffer.byteLength(content)} bytes).`;
  }

  async editFile(path: string, oldString: string, newString: string): Promise<string> {
    if (oldString === '') throw new ToolError('old_string must not be empty; use write_file to create a file.');
    const content = await this.readFile(path);
    const { abs, rel } = await this.resolve(path);
    const count = countOccurrences(content, oldString);
    if (count === 0) throw new ToolError(`old_string was not found in ${rel}.`);
    if (count > 1) throw new ToolError(`old_string occurs ${count} times in ${rel}; include more surrounding text so it occurs exactly once.`);
    const index = content.indexOf(oldString);
    await writeFile(abs, content.slice(0, index) + newString + content.slice(index + oldString.length), 'utf8');
    return `Edited ${rel}.`;
  }

  async deleteFile(path: string): Promise<string> {
    const { abs, rel } = await this.resolve(path);
    const info = await lstat(abs).catch((err: unknown) => (isNotFound(err) ? null : Promise.reject(err)));
    if (!info) throw new ToolError(`${rel} does not exist.`);
    if (info.isDirectory()) throw new ToolError(`${rel} is a directory; delete the files in it one by one.`);
    await rm(abs);
    return `Deleted ${rel}.`;
  }

  /** Files under `path` (default: the whole checkout), recursively, sorted, bounded; directories end with "/" only when empty. */
  async listFiles(path?: string): Promise<string> {
    const { abs, rel } = await this.resolve(path, { allowRoot: true });
    const info = await statOrNull(abs);
    if (!info) throw new ToolError(`${rel || '.'} does not exist.`);
    if (!info.isDirectory()) return rel;
    const files: string[] = [];
    let total = 0;
    for await (const file of this.walk(abs, rel)) {
      total++;
      if (files.length < LIMITS.listEntries) files.push(file);
    }
    if (total === 0) return `${rel || '.'} is empty.`;
    const more = total > files.length ? `\n… and ${total - files.length} more (list a subdirectory to see them)` : '';
    return files.join('\n') + more;
  }

  /** Literal, case-sensitive substring search over the text files of the checkout; `path:line: text` per match. */
  async searchFiles(query: string): Promise<string> {
    if (query === '') throw new ToolError('query must not be empty.');
    const lines: string[] = [];
    let total = 0;
    for await (const file of this.walk(this.root, '')) {
      if (file.endsWith('/')) continue;
      const abs = join(this.root, ...file.split('/'));
      const info = await lstat(abs);
      if (!info.isFile() || info.size > LIMITS.searchFileBytes) continue;
      const buffer = await readFile(abs);
      if (isBinary(buffer)) continue;
      const text = buffer.toString('utf8');
      if (!text.includes(query)) continue;
      text.split('\n').forEach((line, i) => {
        if (!line.includes(query)) return;
        total++;
        if (lines.length < LIMITS.searchMatches) {
          const shown = line.length > LIMITS.searchLineChars ? `${line.slice(0, LIMITS.searchLineChars)}…` : line;
          lines.push(`${file}:${i + 1}: ${shown}`);
        }
      });
    }
    if (total === 0) return `No matches for ${JSON.stringify(query)}.`;
    return lines.join('\n') + (total > lines.length ? `\n… and ${total - lines.length} more matches (search for something more specific)` : '');
  }

  /** Relative paths of files (and empty directories, with a trailing "/"), skipping .git; symlinks are listed, never followed. */
  private async *walk(absDir: string, relDir: string): AsyncGenerator<string> {
    const entries = (await readdir(absDir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (entries.length === 0 && relDir !== '') yield `${relDir}/`;
    for (const entry of entries) {
      if (entry.name.toLowerCase() === '.git') continue;
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) yield* this.walk(join(absDir, entry.name), rel);
      else yield rel;
    }
  }
}

function isNotFound(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function statOrNull(abs: string) {
  try {
    return await stat(abs);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

function isBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, 8000).includes(0);
}

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) count++;
  return count;
}
