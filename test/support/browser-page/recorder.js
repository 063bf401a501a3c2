/*
 * What every page that plays a channel in hls.js records alike: the test player (player.js, read by
 * test/support/browser.ts) and the soak's player (scripts/soak/page/soak.js, read by
 * scripts/soak/run-soak.ts). Both judge halts the same way (test/support/stall-kinds.ts), so both keep
 * the same evidence: each SourceBuffer's own ranges at every halt, and every fragment buffered with
 * when the channel published it. The page's script calls window.onairRecorder(video) first thing,
 * before it makes an Hls, so that every SourceBuffer hls.js adds is seen.
 */
window.onairRecorder = (video) => {
  const t0 = performance.now();
  /** Milliseconds since the page's script began. */
  const at = () => Math.round(performance.now() - t0);

  // Each SourceBuffer's own ranges (the media element's are their intersection) when playback halts:
  // tells a hole in a track's timeline from a buffer that ran dry. Kept by wrapping addSourceBuffer,
  // which hls.js calls with 'video/mp4;...' or 'audio/mp4;...' after this script has run.
  const sourceBuffers = [];
  const addSourceBuffer = MediaSource.prototype.addSourceBuffer;
  MediaSource.prototype.addSourceBuffer = function (mime) {
    const sb = addSourceBuffer.call(this, mime);
    sourceBuffers.push({ type: mime.split('/')[0], sb });
    return sb;
  };
  const trackRanges = () => {
    const tracks = {};
    for (const { type, sb } of sourceBuffers) {
      try {
        const out = [];
        for (let i = 0; i < sb.buffered.length; i++) out.push([sb.buffered.start(i), sb.buffered.end(i)]);
        tracks[type] = out;
      } catch {
        // removed from its MediaSource (hls.js recovered by recreating it, or the page made a new Hls)
      }
    }
    return tracks;
  };

  return {
    at,
    /** Calls record(halt) at every 'waiting' and 'stalled' once started() holds (after the first 'playing'). */
    onHalt(started, record) {
      for (const type of ['waiting', 'stalled']) {
        video.addEventListener(type, () => {
          if (!started()) return;
          record({ atMs: at(), wallMs: Date.now(), currentTime: video.currentTime, tracks: trackRanges() });
        });
      }
    },
    /** The page destroyed its Hls: the SourceBuffers of its MediaSource are gone with it. */
    forgetSourceBuffers() {
      sourceBuffers.length = 0;
    },
    /**
     * What both pages keep of an Hls.Events.ERROR: with the wall clock (the channel's PDT clock on this
     * machine) and, for a load that failed, the fragment it was for (a hole where hls.js gave up a
     * fragment is the player's doing, stall-kinds.ts).
     */
    error: (data) => ({
      atMs: at(),
      wallMs: Date.now(),
      type: data.type,
      details: data.details,
      fatal: data.fatal,
      frag: data.frag ? { type: data.frag.type, start: data.frag.start, duration: data.frag.duration } : null,
    }),
    /**
     * A fragment that reached the buffer (FRAG_BUFFERED), and when the channel published it (it lists
     * a segment once it has ended: PDT + duration): a halt waiting for a fragment published long before
     * is the player's, not the stream's.
     */
    bufferedFrag: (f) => ({
      wallMs: Date.now(),
      type: f.type,
      start: f.start,
      duration: f.duration,
      pdtMs: f.programDateTime ?? null,
    }),
  };
};
