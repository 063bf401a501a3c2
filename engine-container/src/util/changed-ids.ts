/**
 * Ids noted as changed until they are taken, each told once (IAssetManager.takeChangedChannels): the
 * managers the engine polls per channel keep one per kind of change they report.
 */
export class ChangedIds {
  private ids = new Set<string>();

  add(id: string): void {
    this.ids.add(id);
  }

  /** The ids noted since the last take. */
  take(): Set<string> {
    const taken = this.ids;
    this.ids = new Set();
    return taken;
  }
}
