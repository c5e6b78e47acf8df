-- head: 0013_operators
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('0013_operators');
CREATE TABLE deals (
	id INTEGER NOT NULL, 
	game VARCHAR(32) NOT NULL, 
	rules TEXT NOT NULL, 
	server_seed VARCHAR(64) NOT NULL, 
	commitment VARCHAR(64) NOT NULL, 
	client_seed VARCHAR(128), 
	revealed BOOLEAN NOT NULL, 
	created_at DATETIME NOT NULL, player_id INTEGER REFERENCES players (id), seeds TEXT, 
	PRIMARY KEY (id)
);
CREATE TABLE kept_state (
	"key" VARCHAR(400) NOT NULL, 
	value TEXT, 
	count BIGINT DEFAULT '0' NOT NULL, 
	expires FLOAT NOT NULL, 
	PRIMARY KEY ("key")
);
CREATE TABLE ledger (
	id INTEGER NOT NULL, 
	transaction_id INTEGER NOT NULL, 
	account VARCHAR(64) NOT NULL, 
	amount BIGINT NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(transaction_id) REFERENCES transactions (id)
);
CREATE TABLE operator_actions (
	id INTEGER NOT NULL, 
	at DATETIME NOT NULL, 
	operator_id INTEGER, 
	"by" VARCHAR(64) NOT NULL, 
	action VARCHAR(32) NOT NULL, 
	player_id INTEGER, 
	transaction_id INTEGER, 
	reason TEXT NOT NULL, 
	detail TEXT, 
	PRIMARY KEY (id), 
	FOREIGN KEY(operator_id) REFERENCES players (id), 
	FOREIGN KEY(player_id) REFERENCES players (id), 
	FOREIGN KEY(transaction_id) REFERENCES transactions (id)
);
CREATE TABLE players (
	id INTEGER NOT NULL, 
	name VARCHAR(64) NOT NULL, 
	password_hash VARCHAR(256), 
	failed_logins INTEGER NOT NULL, 
	locked_until DATETIME, 
	created_at DATETIME NOT NULL, name_key VARCHAR(200), balance BIGINT DEFAULT '0' NOT NULL, rounds_dealt INTEGER DEFAULT '0' NOT NULL, operator BOOLEAN DEFAULT 0 NOT NULL, locked BOOLEAN DEFAULT 0 NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (name)
);
CREATE TABLE round_events (
	round_id INTEGER NOT NULL, 
	seq INTEGER NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	body TEXT NOT NULL, 
	PRIMARY KEY (round_id, seq), 
	FOREIGN KEY(round_id) REFERENCES rounds (id)
);
CREATE TABLE rounds (
	id INTEGER NOT NULL, 
	player_id INTEGER NOT NULL, 
	game VARCHAR(32) NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	server_seed VARCHAR(64) NOT NULL, 
	commitment VARCHAR(64) NOT NULL, 
	client_seed VARCHAR(128) NOT NULL, 
	nonce INTEGER NOT NULL, 
	balance_before BIGINT NOT NULL, 
	balance_after BIGINT, 
	created_at DATETIME NOT NULL, 
	updated_at DATETIME NOT NULL, deal_id INTEGER REFERENCES deals (id), deal_cards TEXT, record_format INTEGER, rules TEXT, cards_drawn TEXT, result TEXT, 
	PRIMARY KEY (id), 
	FOREIGN KEY(player_id) REFERENCES players (id)
);
CREATE TABLE shared_tables (
	"key" VARCHAR(64) NOT NULL, 
	token BIGINT NOT NULL, 
	phase VARCHAR(16) NOT NULL, 
	deadline FLOAT, 
	deal_id INTEGER, 
	state TEXT NOT NULL, 
	updated_at DATETIME NOT NULL, 
	PRIMARY KEY ("key"), 
	FOREIGN KEY(deal_id) REFERENCES deals (id)
);
CREATE TABLE "transactions" (
    id INTEGER NOT NULL,
    kind VARCHAR(32) NOT NULL,
    player_id INTEGER,
    round_id INTEGER,
    request TEXT,
    response TEXT,
    created_at DATETIME NOT NULL,
    request_key VARCHAR(128),
    PRIMARY KEY (id),
    FOREIGN KEY(player_id) REFERENCES players (id),
    FOREIGN KEY(round_id) REFERENCES rounds (id)
);
CREATE INDEX rounds_player_status ON rounds (player_id, status);
CREATE INDEX deals_player_game ON deals (player_id, game);
CREATE INDEX rounds_deal ON rounds (deal_id);
CREATE UNIQUE INDEX players_name_key_unique ON players (name_key);
CREATE INDEX rounds_player ON rounds (player_id, id);
CREATE INDEX rounds_player_commitment ON rounds (player_id, commitment, id);
CREATE UNIQUE INDEX transactions_player_key ON transactions (player_id, request_key);
CREATE INDEX transactions_round ON transactions (round_id);
CREATE INDEX kept_state_expires ON kept_state (expires);
CREATE INDEX transactions_player_kind ON transactions (player_id, kind, id);
CREATE INDEX ledger_account_transaction ON ledger (account, transaction_id);
CREATE INDEX operator_actions_player ON operator_actions (player_id, id);
CREATE INDEX operator_actions_transaction ON operator_actions (transaction_id);
