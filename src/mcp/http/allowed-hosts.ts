// The `Host` allow-list lives in util/ (corpus serve and the metrics listeners use it too);
// the remote server imports it from here.
export { allowedHosts, isAllowedHost, LOOPBACK_LISTEN_HOSTS } from '../../util/allowed-hosts.ts';
