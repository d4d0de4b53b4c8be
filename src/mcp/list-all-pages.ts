/**
 * Every item of a paginated MCP list (`tools/list`, `resources/list`, `prompts/list`…), following `nextCursor`, up to
 * 100 pages: a server that hands out cursors forever is not followed past them.
 * @module
 */
const MAX_LIST_PAGES = 100;

export async function listAllPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let count = 0; count < MAX_LIST_PAGES; count++) {
    const next = await page(cursor);
    items.push(...next.items);
    cursor = next.nextCursor;
    if (cursor === undefined) break;
  }
  return items;
}
