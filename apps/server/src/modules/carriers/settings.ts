import type { Config } from '../../config.ts';
import { loadCredentialKeys } from './secrets.ts';
import type { CarrierSettings } from './service.ts';

const built = new WeakMap<Config, CarrierSettings>();

/**
 * The sealing keys and the address rule every carrier call of an app takes, built once per
 * configuration: the account routes, the tracking poll and the carriers' webhooks share one object
 * (and read the data folder's key once).
 */
export function carrierSettingsOf(config: Config): CarrierSettings {
  let settings = built.get(config);
  if (!settings) {
    settings = {
      keys: loadCredentialKeys({
        key: config.CARRIER_CREDENTIALS_KEY,
        oldKeys: config.CARRIER_CREDENTIALS_OLD_KEYS,
        production: config.NODE_ENV === 'production',
        dataDir: config.DATA_DIR,
      }),
      allowPrivate: config.CARRIER_ALLOW_PRIVATE ?? config.NODE_ENV !== 'production',
    };
    built.set(config, settings);
  }
  return settings;
}
