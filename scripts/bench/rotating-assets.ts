/** An asset manager that plays, per channel, a fixed rotation of VODs: one entry makes a Loop channel. */
import type { IAssetManager, VodRequest, VodResponse } from '../../engine-container/src/types';

export class RotatingAssets implements IAssetManager {
  private readonly calls = new Map<string, number>();
  /** Each VOD's id (its path), parsed once: a parse per ask was 6 % of the idle engine's samples. */
  private readonly ids = new Map<string, string>();

  /** rotationOf(channelId) lists the VOD URIs the channel plays in turn. */
  constructor(private readonly rotationOf: (channelId: string) => readonly string[]) {}

  async getNextVod(req: VodRequest): Promise<VodResponse> {
    const uris = this.rotationOf(req.sessionId);
    const n = this.calls.get(req.sessionId) ?? 0;
    this.calls.set(req.sessionId, n + 1);
    const uri = uris[n % uris.length];
    if (!uri) throw new Error(`no VOD for channel ${req.sessionId}`);
    let id = this.ids.get(uri);
    if (id === undefined) {
      id = new URL(uri).pathname;
      this.ids.set(uri, id);
    }
    return { id, title: uri, uri };
  }
}
