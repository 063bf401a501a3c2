/**
 * What the console-player tests read from inside the page, independently of the console's own code:
 * an init script that records hls.js's own events from the player's first request (the console calls
 * `window.onairHlsCreated(hls)` before it loads anything), the video's stalls, and a reader that takes
 * the page's stats and hls.js's figures at the same instant (right after the page renders a sample).
 * Scripts are strings: they run in the browser, not in Node.
 */

/** Recorded in the page as `window.__rec`. */
export interface PageRecord {
  errors: { type: string; details: string; fatal: boolean; key: string; code: number | null }[];
  /** Main fragments loaded: bytes and media seconds. */
  frags: { bytes: number; seconds: number }[];
  /** Audio fragment URLs loaded, in order. */
  audioFrags: string[];
  /** 'waiting' after the first 'playing', outside seeks. */
  stalls: number;
  /** The player's phases as the page showed them (data-phase), in order, repeats left out. */
  phases: string[];
}

export const RECORDER_SCRIPT = `
window.__rec = { errors: [], frags: [], audioFrags: [], stalls: 0, played: false, phases: [] };
new MutationObserver(() => {
  const phase = document.querySelector('[data-phase]')?.dataset.phase;
  if (phase && window.__rec.phases.at(-1) !== phase) window.__rec.phases.push(phase);
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-phase'] });
window.onairHlsCreated = (hls) => {
  window.__hls = hls;
  hls.on('hlsError', (_e, d) => {
    const where = d.frag ? d.frag.type + ':' + d.frag.level + ':' + d.frag.sn : (d.url || '');
    window.__rec.errors.push({ type: d.type, details: d.details, fatal: d.fatal,
      key: [d.type, d.details, where, d.fatal ? 'fatal' : ''].join('|'),
      code: d.response && d.response.code ? d.response.code : null });
  });
  hls.on('hlsFragLoaded', (_e, { frag }) => {
    if (frag.type === 'main') window.__rec.frags.push({ bytes: frag.stats.loaded, seconds: frag.duration });
    if (frag.type === 'audio') window.__rec.audioFrags.push(frag.url);
  });
};
document.addEventListener('playing', () => { window.__rec.played = true; }, true);
document.addEventListener('waiting', (e) => {
  if (window.__rec.played && !e.target.seeking) window.__rec.stalls++;
}, true);
`;

/** The page's figures (as shown) and hls.js's (read at once), or null if the page did not render. */
export interface Sample {
  shown: Record<string, string>;
  /** The playhead and the wall clock (ms) the page read its figures at (`data-position`, `data-read-at`). */
  shownAt: number;
  shownAtMs: number;
  errorKeys: string[];
  hls: {
    latency: number;
    delay: number | null;
    /** The wall clock (ms) hls.js's figures were read at. */
    readAtMs: number;
    buffer: number | null;
    declaredKbps: number | null;
    playingDateMs: number | null;
    currentTime: number;
  };
  nowProgramme: { start: number; stop: number | null } | null;
  rec: PageRecord;
}

/**
 * Waits for the page's next stats render and reads, in the same task, what it shows and what hls.js
 * says. The same task is not the same instant: Chromium holds the playhead still only until the next
 * microtask, and a loaded machine can stall between the page's read and this one; so it also reads the
 * playhead and the wall clock the page measured at, and a figure that moves with either is compared at
 * that point.
 */
export const SAMPLE_SCRIPT = `new Promise((resolve) => {
  const stats = document.querySelector('dl.stats');
  const read = () => {
    const hls = window.__hls;
    const shown = {};
    for (const dd of document.querySelectorAll('dl.stats dd')) shown[dd.dataset.stat] = dd.textContent;
    const level = hls.currentLevel >= 0 ? hls.levels[hls.currentLevel] : null;
    const pd = hls.playingDate ? hls.playingDate.getTime() : null;
    const nowMs = Date.now();
    const now = document.querySelector('ol.timeline li[data-role="now"]');
    const next = now && now.nextElementSibling;
    const at = (li) => li ? Date.parse(li.querySelector('time').getAttribute('datetime')) : null;
    return {
      shown,
      shownAt: Number(stats.dataset.position),
      shownAtMs: Number(stats.dataset.readAt),
      errorKeys: [...document.querySelectorAll('[data-errors] li')].map((li) => li.dataset.key),
      hls: {
        latency: hls.latency,
        delay: pd === null ? null : (nowMs - pd) / 1000,
        readAtMs: nowMs,
        buffer: hls.mainForwardBufferInfo ? hls.mainForwardBufferInfo.len : null,
        declaredKbps: level ? level.bitrate / 1000 : null,
        playingDateMs: pd,
        currentTime: document.querySelector('video').currentTime,
      },
      nowProgramme: now ? { start: at(now), stop: at(next) } : null,
      rec: window.__rec,
    };
  };
  const observer = new MutationObserver(() => { observer.disconnect(); clearTimeout(timer); resolve(read()); });
  observer.observe(stats, { subtree: true, childList: true, characterData: true });
  const timer = setTimeout(() => { observer.disconnect(); resolve(null); }, 3000);
})`;

/** "30.2 s" -> 30.2, "1035 kbit/s" -> 1035, "–" -> undefined. */
export const shownNumber = (text: string | undefined): number | undefined => {
  const m = text?.match(/^(-?[\d.]+)/);
  return m ? Number(m[1]) : undefined;
};

/** The page's measured-bitrate rule, recomputed from hls.js's own fragment records: the last 5. */
export const lastFragmentsKbps = (frags: readonly { bytes: number; seconds: number }[]): number => {
  const recent = frags.slice(-5);
  return (recent.reduce((s, f) => s + f.bytes, 0) * 8) / recent.reduce((s, f) => s + f.seconds, 0) / 1000;
};
