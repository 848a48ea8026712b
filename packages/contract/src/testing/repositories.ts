/**
 * Small repositories shaped like real ones, for the tests of grounded projects (issue 20):
 * a Node/Express API on PostgreSQL, a Python/FastAPI service and a Go/chi service. Each
 * carries a secret file and a secret in its source, and says what a reader of it should
 * find. Test-only data: the secrets are assembled from parts so that no scanner reading
 * this repository flags them, and none of them is real.
 */

/** A repository as files on disk: path → text. */
export type RepositoryFiles = Readonly<Record<string, string>>;

/** A test repository and what reading it must find. */
export interface TestRepository {
  name: string;
  files: RepositoryFiles;
  /** Values that must never be stored, served, logged or sent to a model. */
  secrets: readonly string[];
  /** Paths holding secrets by their nature: skipped by the builder, refused by the server. */
  secretFiles: readonly string[];
  /** Paths a `.gitignore` of the repository excludes (the builder must not read them). */
  ignored: readonly string[];
  expected: {
    /** Technologies named in the stack, as a reader would name them. */
    stack: readonly string[];
    /** Paths of the components found (folders or files). */
    componentPaths: readonly string[];
    dataStores: readonly string[];
    externalServices: readonly string[];
    /** Routes as `METHOD /path`. */
    routes: readonly string[];
    /** Tables or models found in schemas and migrations. */
    entities: readonly string[];
  };
}

const join = (...parts: string[]) => parts.join('');

const EXPRESS_DB_PASSWORD = join('vb', '-pg-', 'Xq93kLm2Zr');
const EXPRESS_STRIPE_KEY = join('sk_', 'live_', '51Hx9QaZ2vB7nLmPqRsTuVwXyZ0123456789abcdEFGH');
const EXPRESS_JWT_SECRET = join('a7F3k9', 'Lq2Wz8', 'Pn4Rt6');

/** VetBook's API: Node, Express, PostgreSQL (pg), Stripe. */
export const EXPRESS_POSTGRES: TestRepository = {
  name: 'vetbook-api',
  files: {
    'package.json': JSON.stringify(
      {
        name: 'vetbook-api',
        version: '1.4.0',
        private: true,
        type: 'module',
        scripts: { start: 'node dist/server.js', build: 'tsc', test: 'vitest run' },
        dependencies: {
          express: '^4.19.2',
          pg: '^8.11.3',
          stripe: '^14.21.0',
          zod: '^3.23.8',
          jsonwebtoken: '^9.0.2',
        },
        devDependencies: { typescript: '^5.4.5', vitest: '^1.6.0', '@types/express': '^4.17.21' },
      },
      null,
      2,
    ),
    'README.md':
      '# VetBook API\n\nAppointments for a two-vet clinic: owners book visits for their pets, the clinic confirms them and takes a deposit by card.\n\n## Running\n\n`npm install`, set `DATABASE_URL`, then `npm start`.\n',
    '.gitignore': 'node_modules/\ndist/\n.env\ncoverage/\n',
    '.env': `DATABASE_URL=postgres://vetbook:${EXPRESS_DB_PASSWORD}@localhost:5432/vetbook\nSTRIPE_SECRET_KEY=${EXPRESS_STRIPE_KEY}\n`,
    'tsconfig.json':
      '{ "compilerOptions": { "target": "es2022", "module": "nodenext", "outDir": "dist", "strict": true } }\n',
    'src/server.ts': [
      "import express from 'express';",
      "import { appointments } from './routes/appointments.js';",
      "import { owners } from './routes/owners.js';",
      "import { requireUser } from './middleware/auth.js';",
      '',
      'const app = express();',
      'app.use(express.json());',
      "app.use('/appointments', requireUser, appointments);",
      "app.use('/owners', requireUser, owners);",
      'app.listen(Number(process.env.PORT ?? 3000));',
      '',
    ].join('\n'),
    'src/routes/appointments.ts': [
      "import { Router } from 'express';",
      "import { pool } from '../db/pool.js';",
      "import { chargeDeposit } from '../services/payments.js';",
      '',
      'export const appointments = Router();',
      '',
      "appointments.get('/', async (req, res) => {",
      "  const { rows } = await pool.query('select * from appointments where owner_id = $1', [req.user.id]);",
      '  res.json(rows);',
      '});',
      '',
      "appointments.post('/', async (req, res) => {",
      '  const { petId, startsAt } = req.body;',
      "  const { rows } = await pool.query('insert into appointments (pet_id, starts_at) values ($1, $2) returning *', [petId, startsAt]);",
      '  await chargeDeposit(rows[0].id, 2500);',
      '  res.status(201).json(rows[0]);',
      '});',
      '',
      "appointments.delete('/:id', async (req, res) => {",
      "  await pool.query('delete from appointments where id = $1', [req.params.id]);",
      '  res.status(204).end();',
      '});',
      '',
    ].join('\n'),
    'src/routes/owners.ts': [
      "import { Router } from 'express';",
      "import { pool } from '../db/pool.js';",
      '',
      'export const owners = Router();',
      '',
      "owners.get('/:id', async (req, res) => {",
      "  const { rows } = await pool.query('select * from owners where id = $1', [req.params.id]);",
      '  res.json(rows[0]);',
      '});',
      '',
    ].join('\n'),
    'src/middleware/auth.ts': [
      "import jwt from 'jsonwebtoken';",
      '',
      `const JWT_SECRET = process.env.JWT_SECRET ?? '${EXPRESS_JWT_SECRET}';`,
      '',
      'export function requireUser(req, res, next) {',
      "  const token = req.headers.authorization?.replace('Bearer ', '');",
      '  req.user = jwt.verify(token, JWT_SECRET);',
      '  next();',
      '}',
      '',
    ].join('\n'),
    'src/db/pool.ts': [
      "import pg from 'pg';",
      '',
      'export const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });',
      '',
    ].join('\n'),
    'src/services/payments.ts': [
      "import Stripe from 'stripe';",
      '',
      `const stripe = new Stripe('${EXPRESS_STRIPE_KEY}');`,
      '',
      'export async function chargeDeposit(appointmentId: string, amount: number) {',
      "  return stripe.paymentIntents.create({ amount, currency: 'eur', metadata: { appointmentId } });",
      '}',
      '',
    ].join('\n'),
    'migrations/001_init.sql': [
      'create table owners (id uuid primary key, name text not null, email text unique not null);',
      'create table pets (id uuid primary key, owner_id uuid references owners(id), name text not null, species text);',
      "create table appointments (id uuid primary key, pet_id uuid references pets(id), starts_at timestamptz not null, status text not null default 'booked');",
      '',
    ].join('\n'),
    'test/appointments.test.ts':
      "import { describe, it } from 'vitest';\n\ndescribe('appointments', () => { it.todo('books a visit'); });\n",
    'node_modules/express/index.js': 'module.exports = function express() {};\n',
    'dist/server.js': '// built output\n',
  },
  secrets: [EXPRESS_DB_PASSWORD, EXPRESS_STRIPE_KEY, EXPRESS_JWT_SECRET],
  secretFiles: ['.env'],
  ignored: ['node_modules/express/index.js', 'dist/server.js'],
  expected: {
    stack: ['Node.js', 'TypeScript', 'Express', 'PostgreSQL', 'Vitest'],
    componentPaths: ['src/routes', 'src/db', 'src/services', 'src/middleware'],
    dataStores: ['PostgreSQL'],
    externalServices: ['Stripe'],
    routes: [
      'GET /appointments',
      'POST /appointments',
      'DELETE /appointments/:id',
      'GET /owners/:id',
    ],
    entities: ['owners', 'pets', 'appointments'],
  },
};

const FASTAPI_SENDGRID_KEY = join(
  'SG.',
  'ngeVfQFYQlKU0ufo8x5d1A',
  '.',
  'TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr',
);
const FASTAPI_DB_PASSWORD = join('hl', '_pw_', 'R7t2Yq8Ns');

/** Harvest Ledger: Python, FastAPI, SQLAlchemy with Alembic on PostgreSQL, Redis, SendGrid. */
export const PYTHON_FASTAPI: TestRepository = {
  name: 'harvest-ledger',
  files: {
    'pyproject.toml': [
      '[project]',
      'name = "harvest-ledger"',
      'version = "0.9.0"',
      'requires-python = ">=3.11"',
      'dependencies = [',
      '  "fastapi>=0.111",',
      '  "uvicorn[standard]>=0.29",',
      '  "sqlalchemy>=2.0",',
      '  "alembic>=1.13",',
      '  "psycopg[binary]>=3.1",',
      '  "redis>=5.0",',
      '  "sendgrid>=6.11",',
      ']',
      '',
      '[project.optional-dependencies]',
      'dev = ["pytest>=8.2", "httpx>=0.27"]',
      '',
    ].join('\n'),
    'README.md':
      '# Harvest Ledger\n\nInvoices and deliveries for a cooperative of small farms.\n\nRun with `uvicorn app.main:app --reload`.\n',
    '.gitignore': '__pycache__/\n.venv/\n*.pyc\n.env*\n',
    '.env.production': `DATABASE_URL=postgresql+psycopg://ledger:${FASTAPI_DB_PASSWORD}@db/ledger\n`,
    'app/__init__.py': '',
    'app/main.py': [
      'from fastapi import FastAPI',
      'from app.routers import farms, invoices',
      '',
      'app = FastAPI(title="Harvest Ledger")',
      'app.include_router(farms.router)',
      'app.include_router(invoices.router)',
      '',
    ].join('\n'),
    'app/routers/__init__.py': '',
    'app/routers/invoices.py': [
      'from fastapi import APIRouter, Depends',
      'from app.db import session',
      'from app.models import Invoice',
      'from app.mail import send_invoice',
      '',
      'router = APIRouter(prefix="/invoices", tags=["invoices"])',
      '',
      '@router.get("/")',
      'def list_invoices(db=Depends(session)):',
      '    return db.query(Invoice).all()',
      '',
      '@router.post("/", status_code=201)',
      'def create_invoice(payload: dict, db=Depends(session)):',
      '    invoice = Invoice(**payload)',
      '    db.add(invoice)',
      '    send_invoice(invoice)',
      '    return invoice',
      '',
      '@router.get("/{invoice_id}")',
      'def get_invoice(invoice_id: int, db=Depends(session)):',
      '    return db.get(Invoice, invoice_id)',
      '',
    ].join('\n'),
    'app/routers/farms.py': [
      'from fastapi import APIRouter',
      '',
      'router = APIRouter(prefix="/farms")',
      '',
      '@router.get("/")',
      'def list_farms():',
      '    return []',
      '',
    ].join('\n'),
    'app/models.py': [
      'from sqlalchemy import Column, ForeignKey, Integer, Numeric, String',
      'from sqlalchemy.orm import declarative_base',
      '',
      'Base = declarative_base()',
      '',
      'class Farm(Base):',
      '    __tablename__ = "farms"',
      '    id = Column(Integer, primary_key=True)',
      '    name = Column(String, nullable=False)',
      '',
      'class Invoice(Base):',
      '    __tablename__ = "invoices"',
      '    id = Column(Integer, primary_key=True)',
      '    farm_id = Column(Integer, ForeignKey("farms.id"))',
      '    total = Column(Numeric(10, 2))',
      '',
    ].join('\n'),
    'app/db.py': [
      'import os',
      'from sqlalchemy import create_engine',
      'from sqlalchemy.orm import sessionmaker',
      'import redis',
      '',
      'engine = create_engine(os.environ["DATABASE_URL"])',
      'cache = redis.Redis.from_url(os.environ.get("REDIS_URL", "redis://localhost:6379/0"))',
      'Session = sessionmaker(bind=engine)',
      '',
      'def session():',
      '    with Session() as db:',
      '        yield db',
      '',
    ].join('\n'),
    'app/mail.py': [
      'from sendgrid import SendGridAPIClient',
      '',
      `SENDGRID_API_KEY = "${FASTAPI_SENDGRID_KEY}"`,
      '',
      'def send_invoice(invoice):',
      '    SendGridAPIClient(SENDGRID_API_KEY).send(invoice.as_mail())',
      '',
    ].join('\n'),
    'alembic/versions/0001_init.py': [
      'from alembic import op',
      'import sqlalchemy as sa',
      '',
      'def upgrade():',
      '    op.create_table("farms", sa.Column("id", sa.Integer, primary_key=True), sa.Column("name", sa.String))',
      '    op.create_table("invoices", sa.Column("id", sa.Integer, primary_key=True), sa.Column("farm_id", sa.Integer))',
      '',
    ].join('\n'),
    'tests/test_invoices.py': 'def test_lists_invoices():\n    assert True\n',
    '.venv/lib/site.py': '# a virtual environment\n',
  },
  secrets: [FASTAPI_SENDGRID_KEY, FASTAPI_DB_PASSWORD],
  secretFiles: ['.env.production'],
  ignored: ['.venv/lib/site.py'],
  expected: {
    stack: ['Python', 'FastAPI', 'SQLAlchemy', 'Alembic', 'PostgreSQL', 'Redis', 'pytest'],
    componentPaths: ['app/routers', 'app/models.py', 'app/db.py', 'app/mail.py'],
    dataStores: ['PostgreSQL', 'Redis'],
    externalServices: ['SendGrid'],
    routes: ['GET /invoices', 'POST /invoices', 'GET /invoices/{invoice_id}', 'GET /farms'],
    entities: ['farms', 'invoices'],
  },
};

const GO_SLACK_TOKEN = join(
  'xoxb-',
  '482915736021',
  '-',
  '3917264850173',
  '-',
  'QpLk7Rz2Vx9Nm4Bt6Hw8Jc1D',
);
const GO_PRIVATE_KEY = join(
  '-----BEGIN OPENSSH PRIVATE KEY-----\n',
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n',
  '-----END OPENSSH PRIVATE KEY-----\n',
);

/** Fleet Tracker: Go, chi, pgx on PostgreSQL, Redis, Slack. */
export const GO_CHI: TestRepository = {
  name: 'fleet-tracker',
  files: {
    'go.mod': [
      'module github.com/acme/fleet-tracker',
      '',
      'go 1.22',
      '',
      'require (',
      '\tgithub.com/go-chi/chi/v5 v5.0.12',
      '\tgithub.com/jackc/pgx/v5 v5.5.5',
      '\tgithub.com/redis/go-redis/v9 v9.5.1',
      '\tgithub.com/slack-go/slack v0.12.5',
      ')',
      '',
    ].join('\n'),
    'README.md': '# Fleet Tracker\n\nLive positions of a delivery fleet, for dispatchers.\n',
    '.gitignore': 'bin/\n*.log\n',
    'deploy/id_ed25519': GO_PRIVATE_KEY,
    'cmd/server/main.go': [
      'package main',
      '',
      'import (',
      '\t"net/http"',
      '',
      '\t"github.com/go-chi/chi/v5"',
      '\t"github.com/acme/fleet-tracker/internal/vehicles"',
      ')',
      '',
      'func main() {',
      '\tr := chi.NewRouter()',
      '\tr.Get("/vehicles", vehicles.List)',
      '\tr.Post("/vehicles/{id}/positions", vehicles.RecordPosition)',
      '\tr.Route("/drivers", func(r chi.Router) {',
      '\t\tr.Get("/{id}", vehicles.Driver)',
      '\t})',
      '\thttp.ListenAndServe(":8080", r)',
      '}',
      '',
    ].join('\n'),
    'internal/vehicles/handler.go': [
      'package vehicles',
      '',
      'import "net/http"',
      '',
      'func List(w http.ResponseWriter, r *http.Request) {}',
      'func RecordPosition(w http.ResponseWriter, r *http.Request) {}',
      'func Driver(w http.ResponseWriter, r *http.Request) {}',
      '',
    ].join('\n'),
    'internal/store/postgres.go': [
      'package store',
      '',
      'import (',
      '\t"context"',
      '',
      '\t"github.com/jackc/pgx/v5/pgxpool"',
      '\t"github.com/redis/go-redis/v9"',
      ')',
      '',
      'func Open(ctx context.Context, url string) (*pgxpool.Pool, error) { return pgxpool.New(ctx, url) }',
      '',
      'func Cache() *redis.Client { return redis.NewClient(&redis.Options{Addr: "localhost:6379"}) }',
      '',
    ].join('\n'),
    'internal/notify/slack.go': [
      'package notify',
      '',
      'import "github.com/slack-go/slack"',
      '',
      `var client = slack.New("${GO_SLACK_TOKEN}")`,
      '',
      'func Dispatch(text string) error {',
      '\t_, _, err := client.PostMessage("#dispatch", slack.MsgOptionText(text, false))',
      '\treturn err',
      '}',
      '',
    ].join('\n'),
    'db/schema.sql': [
      'CREATE TABLE vehicles (id BIGSERIAL PRIMARY KEY, plate TEXT NOT NULL UNIQUE);',
      'CREATE TABLE drivers (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL);',
      'CREATE TABLE positions (vehicle_id BIGINT REFERENCES vehicles(id), at TIMESTAMPTZ NOT NULL, lat DOUBLE PRECISION, lng DOUBLE PRECISION);',
      '',
    ].join('\n'),
    'internal/vehicles/handler_test.go':
      'package vehicles\n\nimport "testing"\n\nfunc TestList(t *testing.T) {}\n',
    'bin/server': 'not a text file\u0000\u0001\u0002',
  },
  secrets: [GO_SLACK_TOKEN, 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ'],
  secretFiles: ['deploy/id_ed25519'],
  ignored: ['bin/server'],
  expected: {
    stack: ['Go', 'chi', 'PostgreSQL', 'Redis'],
    componentPaths: ['cmd/server', 'internal/vehicles', 'internal/store', 'internal/notify'],
    dataStores: ['PostgreSQL', 'Redis'],
    externalServices: ['Slack'],
    routes: ['GET /vehicles', 'POST /vehicles/{id}/positions', 'GET /drivers/{id}'],
    entities: ['vehicles', 'drivers', 'positions'],
  },
};

/** The three, for tests that run over each. */
export const TEST_REPOSITORIES: readonly TestRepository[] = [
  EXPRESS_POSTGRES,
  PYTHON_FASTAPI,
  GO_CHI,
];

/**
 * A digest as the server takes it (`context.repository`), made the way a careless client
 * would: every file but the ignored ones and the secret files, secrets in source left in.
 */
export function naiveDigest(repository: TestRepository): {
  name: string;
  files: { path: string; content: string }[];
} {
  const skip = new Set([...repository.ignored, ...repository.secretFiles]);
  return {
    name: repository.name,
    files: Object.entries(repository.files)
      .filter(([path]) => !skip.has(path))
      .map(([path, content]) => ({ path, content })),
  };
}
