/**
 * What the console reads at start from `config.json` next to it: where each API is. `npm start`
 * (local/console-server.ts) serves it, and the AWS stack (lib/console-site.ts) writes the same file to S3.
 */
export interface ConsoleConfig {
  channelApi: string;
  scheduleApi: string;
  autoabrApi: string;
  playback: string;
  stage: string;
}
