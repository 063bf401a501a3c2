/** Names of the benchmark's channels and the media playlist URL the load generator requests for each. */
export const channelId = (n: number): string => `bench-${n}`;
export const mediaPlaylistPath = (n: number): string => `/channels/${channelId(n)}/0.m3u8`;
