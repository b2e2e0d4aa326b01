import GRDB
import Journal
import Keystore

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
        // Every change of a site (authorize, account list, revoke, forgotten account) takes the next
        // value of `counter.site` in its own transaction and records it in `site_revision`, which
        // keeps a row for a revoked origin too (its tombstone). A reader that knows revision R asks
        // for the rows above R (`siteChanges(after:)`), so it sees a revocation by another process
        // as one, and tells a newer change from a stale one. Existing sites get 1…n in origin order.
        migrator.registerMigration("v2-site-revisions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE counter (
                        name TEXT PRIMARY KEY NOT NULL,
                        value INTEGER NOT NULL CHECK (value >= 0)
                    ) STRICT;
                    CREATE TABLE site_revision (
                        origin TEXT PRIMARY KEY NOT NULL,
                        revision INTEGER NOT NULL UNIQUE CHECK (revision > 0)
                    ) STRICT;
                    INSERT INTO site_revision (origin, revision)
                        SELECT origin, row_number() OVER (ORDER BY origin) FROM site;
                    INSERT INTO counter (name, value) VALUES ('site', (SELECT count(*) FROM site));
                    CREATE INDEX chain_metadata_version ON chain_metadata(genesis_hash, spec_version);
                    """)
        }
        // The signing journal (docs/journal.md): one row per entry in chain order (`position`, the
        // rowid, is the storage order the verifier walks; `seq` is the hashed sequence number), and
        // the signed checkpoints. Every column of `journal_entry` but `position` is hashed. The
        // triggers refuse UPDATE and DELETE, so no code path of Sigil can edit history; they are
        // no defence against someone with the file (the hash chain and checkpoints are).
        migrator.registerMigration("v3-journal") { db in
            try db.execute(
                sql: """
                    CREATE TABLE journal_entry (
                        position INTEGER PRIMARY KEY,
                        seq INTEGER NOT NULL,
                        time INTEGER NOT NULL,
                        prev BLOB NOT NULL,
                        protocol TEXT NOT NULL,
                        method TEXT NOT NULL,
                        origin TEXT NOT NULL,
                        app_name TEXT NOT NULL,
                        account TEXT NOT NULL,
                        decision TEXT NOT NULL,
                        detail TEXT NOT NULL,
                        summary_digest BLOB NOT NULL,
                        subject_digest BLOB NOT NULL,
                        result BLOB NOT NULL,
                        shown_truncated INTEGER NOT NULL,
                        shown BLOB NOT NULL,
                        hash BLOB NOT NULL
                    ) STRICT;
                    CREATE INDEX journal_entry_seq ON journal_entry(seq);
                    CREATE TABLE journal_checkpoint (
                        number INTEGER PRIMARY KEY,
                        seq INTEGER NOT NULL,
                        head BLOB NOT NULL,
                        time INTEGER NOT NULL,
                        key BLOB NOT NULL,
                        signature BLOB NOT NULL
                    ) STRICT;
                    CREATE TRIGGER journal_entry_append_only_update BEFORE UPDATE ON journal_entry
                        BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
                    CREATE TRIGGER journal_entry_append_only_delete BEFORE DELETE ON journal_entry
                        BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
                    CREATE TRIGGER journal_checkpoint_append_only_update BEFORE UPDATE ON journal_checkpoint
                        BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
                    CREATE TRIGGER journal_checkpoint_append_only_delete BEFORE DELETE ON journal_checkpoint
                        BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
                    """)
        }
        return migrator
    }()
}
