/*
 * Plays ?src=<HLS URL> with hls.js (default live config, low-latency mode off; ?config=<JSON> adds
 * options) and records what a viewer would notice on window.__report: every hls.js error, the media
 * element's events, the fragments played and video.currentTime sampled over time. Node reads the
 * report with Playwright (test/support/browser.ts) and judges it there, so this file stays a recorder.
 */
(() => {
  const params = new URLSearchParams(location.search);
  const src = params.get('src');
  const extraConfig = JSON.parse(params.get('config') || '{}');
  const video = document.getElementById('video');
  const t0 = performance.now();
  const at = () => Math.round(performance.now() - t0);

  const report = {
    src,
    hlsVersion: Hls.version,
    hlsSupported: Hls.isSupported(),
    firstPlayingAtMs: null,
    errors: [],
    mediaEvents: [],
    samples: [],
    levels: [],
    frags: [],
    pageErrors: [],
  };
  window.__report = report;

  const sample = () => {
    const b = video.buffered;
    report.samples.push({
      atMs: at(),
      currentTime: video.currentTime,
      bufferedEnd: b.length ? b.end(b.length - 1) : null,
      paused: video.paused,
      readyState: video.readyState,
    });
  };
  // Node calls this before reading the report, so the last sample is the moment playback was judged.
  window.__finish = () => {
    sample();
    return report;
  };

  for (const type of ['playing', 'waiting', 'stalled', 'pause', 'ended', 'seeking', 'seeked', 'error']) {
    video.addEventListener(type, () => {
      const event = { atMs: at(), type, currentTime: video.currentTime };
      if (type === 'error' && video.error) event.message = `${video.error.code} ${video.error.message}`;
      if (type === 'playing' && report.firstPlayingAtMs === null) report.firstPlayingAtMs = event.atMs;
      report.mediaEvents.push(event);
    });
  }

  if (!report.hlsSupported) {
    report.pageErrors.push('hls.js is not supported in this browser (no MediaSource)');
    return;
  }

  const hls = new Hls({ ...extraConfig, lowLatencyMode: false });
  hls.on(Hls.Events.ERROR, (_event, data) => {
    report.errors.push({
      atMs: at(),
      type: data.type,
      details: data.details,
      fatal: data.fatal,
      url: data.frag?.url ?? data.url ?? data.context?.url ?? null,
      status: data.response?.code ?? null,
      reason: data.reason ?? data.error?.message ?? null,
    });
  });
  hls.on(Hls.Events.LEVEL_SWITCHED, (_event, data) => report.levels.push({ atMs: at(), level: data.level }));
  hls.on(Hls.Events.FRAG_CHANGED, (_event, data) => {
    const f = data.frag;
    report.frags.push({ atMs: at(), sn: f.sn, cc: f.cc, level: f.level, url: f.url });
  });
  hls.on(Hls.Events.MANIFEST_PARSED, () => {
    video.muted = true;
    video.play().catch((e) => report.pageErrors.push(`video.play() refused: ${e.name}: ${e.message}`));
  });

  setInterval(sample, 250);
  hls.loadSource(src);
  hls.attachMedia(video);
})();
