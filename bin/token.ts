/**
 * Issues an operator token:
 *   npm run token -- --tenant acme --max-channels 50 --env prod [--days 365]
 * The key comes from JWT_KEY_PARAMETER (SSM, with AWS credentials of the deployment) or JWT_KEY_FILE
 * (default .data/keys/jwt-es256.jwk.json, the key `npm start` uses).
 */
import { parseArgs } from 'node:util';
import { HttpError } from '../core/errors';
import { issueOperatorToken } from '../functions/channel/operator-token';

const { values } = parseArgs({
  options: {
    tenant: { type: 'string' },
    'max-channels': { type: 'string', default: '10' },
    env: { type: 'string', default: 'test' },
    days: { type: 'string', default: '365' },
  },
});

if (!values.tenant || (values.env !== 'test' && values.env !== 'prod')) {
  console.error('usage: npm run token -- --tenant <id> [--max-channels N] [--env test|prod] [--days N]');
  process.exit(2);
}

try {
  const issued = await issueOperatorToken({
    tenant: values.tenant,
    maxChannels: Number(values['max-channels']),
    env: values.env,
    days: Number(values.days),
  });
  console.log(JSON.stringify(issued, null, 2));
} catch (err) {
  console.error(err instanceof HttpError ? `${err.message} (${String(err.details.field ?? '')})` : err);
  process.exit(1);
}
