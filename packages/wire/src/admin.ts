/**
 * `@xprotocol/wire/admin` — what an operator scrapes from the adapter and from the relay
 * (docs/operating.md): the Prometheus text format and the admin listener that serves it. Node only
 * (it listens on a socket), so it is an entry of its own and the package's main entry stays free of
 * I/O.
 * @module
 */
export {
  type AdminListener,
  type AdminListenerOptions,
  isLoopbackHost,
  serveAdmin,
} from './admin-listener.js';
export {
  type Labels,
  MetricRegistry,
  PROMETHEUS_CONTENT_TYPE,
  type SeriesReader,
} from './prometheus-text.js';
