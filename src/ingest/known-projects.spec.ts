import type { ProjectsRepository } from '../projects/projects.repository';
import { KnownProjects } from './known-projects';

/** A projects table of fixed ids that records each lookup query. */
function table(ids: string[]) {
  const queries: string[][] = [];
  const repo = {
    existingIds: async (asked: string[]) => {
      queries.push(asked);
      await new Promise((r) => setTimeout(r, 5));
      return asked.filter((id) => ids.includes(id));
    },
  } as unknown as ProjectsRepository;
  return { known: new KnownProjects(repo), queries };
}

describe('KnownProjects', () => {
  it('a flood of unknown ids costs one query per round trip, not one per request', async () => {
    const { known, queries } = table(['prj_a']);
    const asked = ['prj_a', ...Array.from({ length: 300 }, (_, i) => `prj_random_${i}`)];
    const answers = await Promise.all(asked.map((id) => known.exists(id)));
    expect(answers[0]).toBe(true);
    expect(answers.slice(1).every((a) => a === false)).toBe(true);
    expect(queries.length).toBeLessThanOrEqual(2); // the first id alone, then everyone who arrived meanwhile
    expect(queries.flat().sort()).toEqual([...asked].sort());
  });

  it('answers from the cache without a promise once known', async () => {
    const { known, queries } = table(['prj_a']);
    expect(await known.exists('prj_a')).toBe(true);
    expect(known.exists('prj_a')).toBe(true);
    expect(await known.exists('prj_b')).toBe(false);
    expect(known.exists('prj_b')).toBe(false);
    expect(queries).toEqual([['prj_a'], ['prj_b']]);
  });

  it('a failed lookup rejects its waiters and is not cached', async () => {
    let fail = true;
    const repo = { existingIds: async (ids: string[]) => (fail ? Promise.reject(new Error('down')) : ids) } as unknown as ProjectsRepository;
    const known = new KnownProjects(repo);
    await expect(known.exists('prj_a')).rejects.toThrow('down');
    fail = false;
    await expect(known.exists('prj_a')).resolves.toBe(true);
  });
});
