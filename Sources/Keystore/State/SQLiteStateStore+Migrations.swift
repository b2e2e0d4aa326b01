import GRDB

extension SQLiteStateStore {
    /// The schema, as an append-only list of migrations. Never edit a shipped migration; add a new one
    /// with a new name (`v2-…`). GRDB records applied names in `grdb_migrations`
    /// and runs each pending one in its own transaction.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-initial") { db in
            try db.execute(
                sql: """
                    CREATE TABLE site (
                        origin TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL,
                        authorized_at INTEGER NOT NULL,
                        updated_at INTEGER NOT NULL
                    ) STRICT;
                    CREATE TABLE site_account (
                        origin TEXT NOT NULL REFERENCES site(origin) ON DELETE CASCADE ON UPDATE CASCADE,
                        position INTEGER NOT NULL,
                        address TEXT NOT NULL,
                        PRIMARY KEY (origin, address)
                    ) STRICT;
                    CREATE INDEX site_account_address ON site_account(address);
                    CREATE TABLE chain_metadata (
                        genesis_hash TEXT PRIMARY KEY NOT NULL CHECK (length(genesis_hash) = 66),
                        spec_version INTEGER NOT NULL CHECK (spec_version BETWEEN 0 AND 4294967295),
                        chain TEXT NOT NULL,
                        ss58_format INTEGER CHECK (ss58_format BETWEEN 0 AND 16383),
                        token_symbol TEXT,
                        token_decimals INTEGER CHECK (token_decimals BETWEEN 0 AND 255),
                        metadata BLOB NOT NULL,
                        extra_json TEXT,
                        updated_at INTEGER NOT NULL
                    ) STRICT;
                    CREATE TABLE setting (
                        key TEXT PRIMARY KEY NOT NULL,
                        value TEXT NOT NULL
                    ) STRICT;
                    """)
        }
        return migrator
    }()
}
