import pg from "pg";

/**
 * The pg client our pools use. PostgreSQL tells a connection it is being
 * closed (a restart, a failover, pg_terminate_backend) with a FATAL message
 * that may arrive while no query is running on it; pg then emits 'error' on
 * the client, and a client that is checked out, or just handed back after a
 * failure, may have no listener at that instant: an unhandled 'error' ends
 * the process. Every client here always has one. The failure itself still
 * reaches whoever uses the connection (the query fails, the pool discards
 * the client), so nothing is hidden; the process just stays up.
 */
export class ResilientClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on("error", () => {});
  }
}
