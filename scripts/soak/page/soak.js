/*
 * Plays ?src=<HLS URL> with hls.js for as long as the soak runs and keeps what a viewer would notice
 * since Node last asked: window.__take() returns it and starts afresh, so hours of play hold one
 * minute's record at most. Like a player app it recovers from fatal errors (counted all the same):
 * network errors by loading again, media errors with recoverMediaError, anything else with a new Hls.
 * Node judges the record (scripts/soak/summary.ts, test/support/stall-kinds.ts).
 */
(() => {
  const src = new URLSearchParams(location.search).get('src');
  const video = document.getElementById('video');
  // Halts' SourceBuffer ranges, buffered fragments and errors, as the test player records them
  // (test/support/browser-page/recorder.js, served beside this page by startPageServer).
  const recorder = window.onairRecorder(video);

  let record;
  const fresh = () => ({ errors: [], stalls: [], latencies: [], behindLive: [], bufferAhead: [], playing: false });
  record = fresh();
  /** Fragments buffered in the last two minutes: what a halt waited for, and when it was published. */
  let frags = [];
  let started = false;
  let hls;

  video.addEventListener('playing', () => {
    started = true;
  });
  recorder.onHalt(
    () => started,
    (halt) => record.stalls.push(halt),
  );

  const attach = () => {
    hls = new Hls({ lowLatencyMode: false });
    hls.on(Hls.Events.ERROR, (_event, data) => {
      record.errors.push(recorder.error(data));
      if (!data.fatal) return;
      if (data.type === Hls.ErrorTypes.NETWORK_ERROR) hls.startLoad();
      else if (data.type === Hls.ErrorTypes.MEDIA_ERROR) hls.recoverMediaError();
      else {
        hls.destroy();
        recorder.forgetSourceBuffers();
        attach();
      }
    });
    hls.on(Hls.Events.FRAG_BUFFERED, (_event, data) => {
      frags.push(recorder.bufferedFrag(data.frag));
    });
    hls.on(Hls.Events.MANIFEST_PARSED, () => {
      video.play().catch(() => undefined);
    });
    hls.loadSource(src);
    hls.attachMedia(video);
  };
  attach();

  setInterval(() => {
    if (!started) return;
    if (typeof hls.latency === 'number' && Number.isFinite(hls.latency)) record.latencies.push(hls.latency);
    // The wall-clock age of the picture on screen: now less its EXT-X-PROGRAM-DATE-TIME.
    const date = hls.playingDate;
    if (date) record.behindLive.push((Date.now() - date.getTime()) / 1000);
    const b = video.buffered;
    for (let i = 0; i < b.length; i++)
      if (b.start(i) <= video.currentTime + 0.1 && b.end(i) >= video.currentTime) record.bufferAhead.push(b.end(i) - video.currentTime);
    if (!video.paused && video.readyState >= 3) record.playing = true;
  }, 1000);

  window.__take = () => {
    const quality = video.getVideoPlaybackQuality();
    const cutoff = Date.now() - 120_000;
    frags = frags.filter((f) => f.wallMs >= cutoff);
    const out = {
      ...record,
      started,
      currentTime: video.currentTime,
      wallMs: Date.now(),
      droppedFrames: quality.droppedVideoFrames,
      totalFrames: quality.totalVideoFrames,
      frags,
    };
    record = fresh();
    return out;
  };
})();
