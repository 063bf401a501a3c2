/**
 * An API instance's memory of scores, by `bucket/key` and ETag: a score counts only while the listed
 * ETag matches. The oldest entry is dropped first past `maxEntries`.
 */
export class ScoreCache {
  private readonly entries = new Map<string, { etag: string; score: number }>();

  constructor(private readonly maxEntries = 200_000) {}

  get(id: string, etag: string): number | undefined {
    const hit = this.entries.get(id);
    return hit && etag && hit.etag === etag ? hit.score : undefined;
  }

  set(id: string, etag: string, score: number): void {
    if (!etag) return;
    this.entries.delete(id);
    this.entries.set(id, { etag, score });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
