/** Where the e2e server records its process id and database, one file per port. */
export declare function e2eServerStateFile(port: string | number | undefined): string;
