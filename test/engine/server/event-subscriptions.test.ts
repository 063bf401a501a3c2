import { describe, expect, it } from 'vitest';
import { type EngineEvent, EngineEvents } from '../../../engine-container/src/events';

const types = (seen: EngineEvent[]) => seen.map((e) => `${e.channelId}:${e.type}`);

describe('channel events', () => {
  it('hands a channel’s listener only that channel’s events, and an every-channel listener all of them', () => {
    const events = new EngineEvents(() => 0);
    const news: EngineEvent[] = [];
    const all: EngineEvent[] = [];
    events.subscribe((e) => news.push(e), 'news');
    events.subscribe((e) => all.push(e));
    events.emit('news', 'item_started');
    events.emit('sport', 'item_started');
    expect(types(news)).toEqual(['news:item_started']);
    expect(types(all)).toEqual(['news:item_started', 'sport:item_started']);
  });

  it('ends only its own subscription, however often it is called, the same listener subscribed again staying', () => {
    const events = new EngineEvents(() => 0);
    const seen: EngineEvent[] = [];
    const listener = (e: EngineEvent) => seen.push(e);
    const stopFirst = events.subscribe(listener, 'news');
    events.subscribe(listener, 'news');
    stopFirst();
    stopFirst();
    events.emit('news', 'channel_reset');
    expect(types(seen)).toEqual(['news:channel_reset']);
  });

  it('delivers an event to the listeners subscribed when it was emitted, whatever an earlier one changes meanwhile', () => {
    const events = new EngineEvents(() => 0);
    const seen: string[] = [];
    let stopVictim = () => {};
    events.subscribe(() => {
      seen.push('remover');
      stopVictim();
      events.subscribe(() => seen.push('added'), 'news');
    }, 'news');
    stopVictim = events.subscribe(() => seen.push('victim'), 'news');
    events.emit('news', 'item_started');
    expect(seen).toEqual(['remover', 'victim']);
    events.emit('news', 'item_started');
    expect(seen).toEqual(['remover', 'victim', 'remover', 'added']);
  });

  it('builds no event for a channel nobody listens to (no clock read, no timestamp)', () => {
    let reads = 0;
    const events = new EngineEvents(() => ++reads);
    events.subscribe(() => undefined, 'news');
    events.emit('sport', 'item_appended');
    expect(reads).toBe(0);
    events.emit('news', 'item_appended');
    expect(reads).toBe(1);
  });
});
