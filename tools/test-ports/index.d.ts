/**
 * A loopback port free a moment ago, chosen at random in 20000–31999, below the kernel's ephemeral
 * range, and checked to bind on 127.0.0.1.
 */
export declare function freePort(): Promise<number>;
/** Whether `port` can be bound on 127.0.0.1 right now (the probe is closed again). */
export declare function canBind(port: number): Promise<boolean>;
