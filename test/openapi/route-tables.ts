/** The three route tables with their OpenAPI documents, built without any store (tables are data). */
import type { Route } from '../../core/http';
import { type ApiInfo, openApiDocument } from '../../core/openapi';
import type { ApiDeps } from '../../functions/autoabr/api/api-deps';
import { AUTOABR_API_INFO } from '../../functions/autoabr/api/api-docs';
import { createAutoabrRoutes } from '../../functions/autoabr/api/routes';
import { CHANNEL_API_INFO, channelRoutes } from '../../functions/channel/routes';
import { createScheduleRoutes, SCHEDULE_API_INFO } from '../../functions/schedule/api/routes';

const never = () => {
  throw new Error('no dependencies: only the table is read');
};

export interface Table {
  service: 'channel' | 'schedule' | 'autoabr';
  info: ApiInfo;
  routes: Route[];
}

export const tables: Table[] = [
  { service: 'channel', info: CHANNEL_API_INFO, routes: channelRoutes(() => Promise.reject(never())) },
  { service: 'schedule', info: SCHEDULE_API_INFO, routes: createScheduleRoutes(never) },
  { service: 'autoabr', info: AUTOABR_API_INFO, routes: createAutoabrRoutes(never as () => ApiDeps) },
];

export const documentOf = (t: Table, stage = 'test') => openApiDocument(t.info, t.routes, stage);
