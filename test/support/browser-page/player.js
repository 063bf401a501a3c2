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
  // Halts' SourceBuffer ranges, buffered fragments and errors, as the soak's page records them.
  const recorder = window.onairRecorder(video);
  const at = recorder.at;

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
    audioTracks: [],
    audioFrags: [],
    cues: [],
    subtitleFrags: [],
    interstitials: [],
    levelLoads: [],
    stallBuffers: [],
    bufferedFrags: [],
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
      // hls.js's distance behind the live edge (the playlist's end, aged since it was loaded), seconds.
      latency: hls.latency,
    });
  };
  // Node calls this before reading the report, so the last sample is the moment playback was judged.
  window.__finish = () => {
    sample();
    return report;
  };

  recorder.onHalt(
    () => report.firstPlayingAtMs !== null,
    (halt) => report.stallBuffers.push(halt),
  );

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
      ...recorder.error(data),
      url: data.frag?.url ?? data.url ?? data.context?.url ?? null,
      status: data.response?.code ?? null,
      reason: data.reason ?? data.error?.message ?? null,
    });
  });
  // HLS interstitials (EXT-X-DATERANGE CLASS="com.apple.hls.interstitial"): every step hls.js takes.
  const interstitialEvents = {
    INTERSTITIALS_UPDATED: 'updated',
    INTERSTITIAL_STARTED: 'started',
    INTERSTITIAL_ASSET_STARTED: 'assetStarted',
    INTERSTITIAL_ASSET_ENDED: 'assetEnded',
    INTERSTITIAL_ASSET_ERROR: 'assetError',
    INTERSTITIAL_ENDED: 'ended',
    INTERSTITIALS_PRIMARY_RESUMED: 'primaryResumed',
  };
  for (const [name, type] of Object.entries(interstitialEvents)) {
    if (!Hls.Events[name]) continue;
    hls.on(Hls.Events[name], (_event, data) => {
      report.interstitials.push({
        atMs: at(),
        type,
        id: data.event?.identifier ?? data.events?.map((e) => e.identifier).join(' ') ?? null,
        assetUri: data.asset?.uri ?? data.event?.assetUrl ?? null,
        currentTime: video.currentTime,
        error: data.error?.message ?? null,
      });
    });
  }
  // Each media playlist as hls.js read it: live (no EXT-X-ENDLIST) or not, its type and fragments.
  hls.on(Hls.Events.LEVEL_LOADED, (_event, data) => {
    const d = data.details;
    report.levelLoads.push({
      atMs: at(),
      level: data.level,
      live: d.live,
      type: d.type ?? null,
      startSN: d.startSN,
      endSN: d.endSN,
      fragments: d.fragments.length,
    });
  });
  hls.on(Hls.Events.LEVEL_SWITCHED, (_event, data) => report.levels.push({ atMs: at(), level: data.level }));
  hls.on(Hls.Events.FRAG_CHANGED, (_event, data) => {
    const f = data.frag;
    report.frags.push({
      atMs: at(),
      sn: f.sn,
      cc: f.cc,
      level: f.level,
      url: f.url,
      start: f.start,
      programDateTimeMs: f.programDateTime ?? null,
    });
  });
  // ?audioLang=<lang>&audioSwitchAtSec=<s>: switch the audio track once currentTime passes s.
  // ?subtitleLang=<lang>: show that subtitle track; every cue shown is recorded with its language.
  const audioLang = params.get('audioLang');
  const audioSwitchAtSec = Number(params.get('audioSwitchAtSec') || 0);
  const subtitleLang = params.get('subtitleLang');
  hls.on(Hls.Events.AUDIO_TRACKS_UPDATED, (_event, data) => {
    report.audioTracks = data.audioTracks.map((t) => ({ lang: t.lang, name: t.name }));
  });
  hls.on(Hls.Events.FRAG_BUFFERED, (_event, data) => {
    const f = data.frag;
    report.bufferedFrags.push(recorder.bufferedFrag(f));
    if (f.type !== 'audio') return;
    const track = hls.audioTracks[f.level];
    report.audioFrags.push({ atMs: at(), lang: track?.lang ?? null, start: f.start, currentTime: video.currentTime });
  });
  // Chosen once playing: hls.js picks its own subtitle track (none) when it reads the playlists.
  const chooseSubtitles = () => {
    if (!subtitleLang || report.firstPlayingAtMs === null) return;
    const index = hls.subtitleTracks.findIndex((t) => t.lang === subtitleLang);
    if (index < 0 || hls.subtitleTrack === index) return;
    hls.subtitleDisplay = true;
    hls.subtitleTrack = index;
  };
  // The cues on screen: every sample records the active cues of the showing text track.
  const recordCues = () => {
    for (const track of video.textTracks) {
      if (track.mode !== 'showing') continue;
      for (const cue of track.activeCues ?? [])
        report.cues.push({ atMs: at(), lang: track.language, text: cue.text, currentTime: video.currentTime });
    }
  };
  hls.on(Hls.Events.SUBTITLE_FRAG_PROCESSED, (_event, data) => {
    report.subtitleFrags.push({ atMs: at(), success: data.success, url: data.frag?.url ?? null });
  });
  if (audioLang) {
    const switcher = setInterval(() => {
      if (report.firstPlayingAtMs === null || video.currentTime < audioSwitchAtSec) return;
      const index = hls.audioTracks.findIndex((t) => t.lang === audioLang);
      if (index < 0) return;
      clearInterval(switcher);
      report.audioSwitch = { atMs: at(), currentTime: video.currentTime };
      hls.audioTrack = index;
    }, 250);
  }
  hls.on(Hls.Events.MANIFEST_PARSED, () => {
    video.muted = true;
    video.play().catch((e) => report.pageErrors.push(`video.play() refused: ${e.name}: ${e.message}`));
  });

  setInterval(() => {
    sample();
    chooseSubtitles();
    recordCues();
  }, 250);
  hls.loadSource(src);
  hls.attachMedia(video);
})();
