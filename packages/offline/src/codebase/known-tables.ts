/**
 * The knowledge table itself: per ecosystem, the packages that say something about a
 * system's shape (frameworks, stores, ORMs, services, test tools), named as a reader writes
 * them. Read through `knownPackage` (known-packages.ts), which also matches prefixes.
 */

export type Ecosystem = 'npm' | 'pypi' | 'go' | 'cargo' | 'maven' | 'gem' | 'composer';

export type Kind =
  | 'framework'
  | 'store'
  | 'cache'
  | 'orm'
  | 'migrations'
  | 'service'
  | 'testing'
  | 'build'
  | 'runtime'
  | 'library';

/** What a package is, named as a reader would write it. */
export interface Known {
  name: string;
  kind: Kind;
  /** For a service or a library: what it is used for, e.g. `payments`, `SMS`. */
  purpose?: string;
}

export type Table = Record<string, Known[]>;

/** `{ express: 'Express' }` → entries of one kind; `'Stripe|payments'` carries a purpose. */
function of(kind: Kind, names: Record<string, string>): Table {
  const out: Table = {};
  for (const [key, value] of Object.entries(names)) {
    const [name, purpose] = value.split('|') as [string, string | undefined];
    out[key] = [purpose ? { name, kind, purpose } : { name, kind }];
  }
  return out;
}

/** Tables merged, so that one package can be two things (django: a framework and an ORM). */
function merge(...tables: Table[]): Table {
  const out: Table = {};
  for (const table of tables)
    for (const [key, known] of Object.entries(table)) out[key] = [...(out[key] ?? []), ...known];
  return out;
}

const NPM = merge(
  of('framework', {
    express: 'Express',
    fastify: 'Fastify',
    koa: 'Koa',
    '@koa/router': 'Koa',
    '@hapi/hapi': 'hapi',
    hapi: 'hapi',
    '@nestjs/core': 'NestJS',
    next: 'Next.js',
    nuxt: 'Nuxt',
    react: 'React',
    vue: 'Vue',
    svelte: 'Svelte',
    '@sveltejs/kit': 'SvelteKit',
    '@angular/core': 'Angular',
    'react-native': 'React Native',
    expo: 'Expo',
    hono: 'Hono',
    restify: 'restify',
    '@remix-run/node': 'Remix',
    astro: 'Astro',
    electron: 'Electron',
    '@apollo/server': 'Apollo Server',
    'apollo-server': 'Apollo Server',
  }),
  of('store', {
    pg: 'PostgreSQL',
    postgres: 'PostgreSQL',
    'pg-promise': 'PostgreSQL',
    '@neondatabase/serverless': 'PostgreSQL',
    '@vercel/postgres': 'PostgreSQL',
    '@electric-sql/pglite': 'PostgreSQL',
    mysql: 'MySQL',
    mysql2: 'MySQL',
    sqlite3: 'SQLite',
    'better-sqlite3': 'SQLite',
    '@libsql/client': 'SQLite',
    mongodb: 'MongoDB',
    mongoose: 'MongoDB',
    '@elastic/elasticsearch': 'Elasticsearch',
    elasticsearch: 'Elasticsearch',
    '@aws-sdk/client-dynamodb': 'DynamoDB',
    '@google-cloud/firestore': 'Firestore',
    amqplib: 'RabbitMQ',
    kafkajs: 'Kafka',
  }),
  of('cache', { redis: 'Redis', ioredis: 'Redis', memcached: 'Memcached' }),
  of('orm', {
    prisma: 'Prisma',
    '@prisma/client': 'Prisma',
    'drizzle-orm': 'Drizzle ORM',
    typeorm: 'TypeORM',
    sequelize: 'Sequelize',
    knex: 'Knex',
    kysely: 'Kysely',
    mongoose: 'Mongoose',
    '@mikro-orm/core': 'MikroORM',
    objection: 'Objection.js',
  }),
  of('migrations', {
    'node-pg-migrate': 'node-pg-migrate',
    umzug: 'Umzug',
    'drizzle-kit': 'drizzle-kit',
  }),
  of('service', {
    stripe: 'Stripe|payments',
    '@stripe/stripe-js': 'Stripe|payments',
    '@sendgrid/mail': 'SendGrid|email',
    postmark: 'Postmark|email',
    'mailgun.js': 'Mailgun|email',
    resend: 'Resend|email',
    twilio: 'Twilio|SMS',
    '@vonage/server-sdk': 'Vonage|SMS',
    '@slack/web-api': 'Slack|messages',
    '@slack/bolt': 'Slack|messages',
    'aws-sdk': 'AWS|cloud services',
    '@aws-sdk/*': 'AWS|cloud services',
    '@aws-sdk/client-s3': 'Amazon S3|file storage',
    '@aws-sdk/client-ses': 'Amazon SES|email',
    openai: 'OpenAI|AI models',
    '@anthropic-ai/sdk': 'Anthropic|AI models',
    '@google/genai': 'Google Gemini|AI models',
    'firebase-admin': 'Firebase|app backend',
    firebase: 'Firebase|app backend',
    auth0: 'Auth0|authentication',
    '@auth0/*': 'Auth0|authentication',
    '@clerk/*': 'Clerk|authentication',
    '@supabase/supabase-js': 'Supabase|app backend',
    '@sentry/*': 'Sentry|error reporting',
    'dd-trace': 'Datadog|monitoring',
    'posthog-node': 'PostHog|analytics',
    algoliasearch: 'Algolia|search',
    '@octokit/rest': 'GitHub|repositories',
    '@notionhq/client': 'Notion|pages',
    '@linear/sdk': 'Linear|issues',
    '@google-cloud/*': 'Google Cloud|cloud services',
    '@azure/*': 'Azure|cloud services',
    cloudinary: 'Cloudinary|media',
    plaid: 'Plaid|bank data',
    '@shopify/shopify-api': 'Shopify|commerce',
    'discord.js': 'Discord|messages',
  }),
  of('testing', {
    vitest: 'Vitest',
    jest: 'Jest',
    mocha: 'Mocha',
    ava: 'AVA',
    jasmine: 'Jasmine',
    '@playwright/test': 'Playwright',
    cypress: 'Cypress',
    supertest: 'supertest',
    '@testing-library/react': 'Testing Library',
  }),
  of('build', {
    vite: 'Vite',
    webpack: 'webpack',
    esbuild: 'esbuild',
    tsup: 'tsup',
    rollup: 'Rollup',
    '@biomejs/biome': 'Biome',
    eslint: 'ESLint',
    prettier: 'Prettier',
    turbo: 'Turborepo',
  }),
  of('library', {
    zod: 'Zod|validation',
    joi: 'Joi|validation',
    jsonwebtoken: 'jsonwebtoken|JWT authentication',
    passport: 'Passport|authentication',
    bcrypt: 'bcrypt|password hashing',
    bcryptjs: 'bcrypt|password hashing',
    nodemailer: 'Nodemailer|email',
    bullmq: 'BullMQ|background jobs',
    bull: 'Bull|background jobs',
    'socket.io': 'Socket.IO|real-time messages',
    graphql: 'GraphQL|API',
    '@trpc/server': 'tRPC|API',
    axios: 'axios|HTTP client',
    tailwindcss: 'Tailwind CSS|styles',
    '@reduxjs/toolkit': 'Redux|client state',
    zustand: 'Zustand|client state',
    pinia: 'Pinia|client state',
    '@tanstack/react-query': 'TanStack Query|data fetching',
  }),
);

const PYPI = merge(
  of('framework', {
    fastapi: 'FastAPI',
    django: 'Django',
    flask: 'Flask',
    starlette: 'Starlette',
    tornado: 'Tornado',
    sanic: 'Sanic',
    litestar: 'Litestar',
    pyramid: 'Pyramid',
    quart: 'Quart',
    aiohttp: 'aiohttp',
    djangorestframework: 'Django REST framework',
  }),
  of('orm', {
    django: 'Django ORM',
    sqlalchemy: 'SQLAlchemy',
    'flask-sqlalchemy': 'SQLAlchemy',
    sqlmodel: 'SQLModel',
    peewee: 'Peewee',
    'tortoise-orm': 'Tortoise ORM',
    mongoengine: 'MongoEngine',
  }),
  of('migrations', { alembic: 'Alembic', 'flask-migrate': 'Alembic' }),
  of('store', {
    psycopg: 'PostgreSQL',
    psycopg2: 'PostgreSQL',
    'psycopg2-binary': 'PostgreSQL',
    asyncpg: 'PostgreSQL',
    pg8000: 'PostgreSQL',
    mysqlclient: 'MySQL',
    pymysql: 'MySQL',
    'mysql-connector-python': 'MySQL',
    aiomysql: 'MySQL',
    pymongo: 'MongoDB',
    motor: 'MongoDB',
    mongoengine: 'MongoDB',
    elasticsearch: 'Elasticsearch',
    pika: 'RabbitMQ',
    'kafka-python': 'Kafka',
    'confluent-kafka': 'Kafka',
  }),
  of('cache', { redis: 'Redis', aioredis: 'Redis', 'django-redis': 'Redis' }),
  of('runtime', { uvicorn: 'Uvicorn', gunicorn: 'Gunicorn', hypercorn: 'Hypercorn' }),
  of('service', {
    sendgrid: 'SendGrid|email',
    twilio: 'Twilio|SMS',
    'slack-sdk': 'Slack|messages',
    slackclient: 'Slack|messages',
    'slack-bolt': 'Slack|messages',
    boto3: 'AWS|cloud services',
    botocore: 'AWS|cloud services',
    openai: 'OpenAI|AI models',
    anthropic: 'Anthropic|AI models',
    stripe: 'Stripe|payments',
    'firebase-admin': 'Firebase|app backend',
    'sentry-sdk': 'Sentry|error reporting',
    'auth0-python': 'Auth0|authentication',
    'google-cloud-*': 'Google Cloud|cloud services',
    'azure-*': 'Azure|cloud services',
    postmarker: 'Postmark|email',
  }),
  of('testing', { pytest: 'pytest', hypothesis: 'Hypothesis', nose2: 'nose2', tox: 'tox' }),
  of('build', { ruff: 'Ruff', black: 'Black', mypy: 'mypy', flake8: 'flake8' }),
  of('library', {
    pydantic: 'Pydantic|validation',
    celery: 'Celery|background jobs',
    rq: 'RQ|background jobs',
    httpx: 'HTTPX|HTTP client',
    requests: 'Requests|HTTP client',
    pandas: 'pandas|data frames',
    numpy: 'NumPy|numerics',
    'python-jose': 'python-jose|JWT authentication',
    pyjwt: 'PyJWT|JWT authentication',
  }),
);

const GO = merge(
  of('framework', {
    'github.com/gin-gonic/gin': 'gin',
    'github.com/go-chi/chi': 'chi',
    'github.com/labstack/echo': 'Echo',
    'github.com/gofiber/fiber': 'Fiber',
    'github.com/gorilla/mux': 'gorilla/mux',
    'google.golang.org/grpc': 'gRPC',
  }),
  of('store', {
    'github.com/jackc/pgx': 'PostgreSQL',
    'github.com/lib/pq': 'PostgreSQL',
    'gorm.io/driver/postgres': 'PostgreSQL',
    'github.com/go-sql-driver/mysql': 'MySQL',
    'gorm.io/driver/mysql': 'MySQL',
    'github.com/mattn/go-sqlite3': 'SQLite',
    'modernc.org/sqlite': 'SQLite',
    'gorm.io/driver/sqlite': 'SQLite',
    'go.mongodb.org/mongo-driver': 'MongoDB',
    'github.com/elastic/go-elasticsearch': 'Elasticsearch',
    'github.com/segmentio/kafka-go': 'Kafka',
    'github.com/rabbitmq/amqp091-go': 'RabbitMQ',
  }),
  of('cache', { 'github.com/redis/go-redis': 'Redis', 'github.com/go-redis/redis': 'Redis' }),
  of('orm', { 'gorm.io/gorm': 'GORM', 'entgo.io/ent': 'ent', 'github.com/jmoiron/sqlx': 'sqlx' }),
  of('migrations', {
    'github.com/golang-migrate/migrate': 'golang-migrate',
    'github.com/pressly/goose': 'goose',
  }),
  of('service', {
    'github.com/slack-go/slack': 'Slack|messages',
    'github.com/stripe/stripe-go': 'Stripe|payments',
    'github.com/aws/aws-sdk-go': 'AWS|cloud services',
    'github.com/aws/aws-sdk-go-v2': 'AWS|cloud services',
    'github.com/sendgrid/sendgrid-go': 'SendGrid|email',
    'github.com/twilio/twilio-go': 'Twilio|SMS',
    'github.com/getsentry/sentry-go': 'Sentry|error reporting',
    'github.com/sashabaranov/go-openai': 'OpenAI|AI models',
    'github.com/openai/openai-go': 'OpenAI|AI models',
    'github.com/anthropics/anthropic-sdk-go': 'Anthropic|AI models',
  }),
  of('testing', { 'github.com/stretchr/testify': 'testify' }),
  of('library', { 'github.com/spf13/cobra': 'Cobra|command line' }),
);

const CARGO = merge(
  of('framework', {
    'actix-web': 'Actix Web',
    axum: 'axum',
    rocket: 'Rocket',
    warp: 'warp',
    tonic: 'gRPC',
  }),
  of('runtime', { tokio: 'Tokio' }),
  of('orm', { diesel: 'Diesel', 'sea-orm': 'SeaORM', sqlx: 'SQLx' }),
  of('store', {
    'tokio-postgres': 'PostgreSQL',
    postgres: 'PostgreSQL',
    mysql: 'MySQL',
    mysql_async: 'MySQL',
    rusqlite: 'SQLite',
    mongodb: 'MongoDB',
  }),
  of('cache', { redis: 'Redis' }),
  of('service', {
    'async-stripe': 'Stripe|payments',
    'aws-sdk-*': 'AWS|cloud services',
    sentry: 'Sentry|error reporting',
  }),
  of('library', { serde: 'serde|serialisation', reqwest: 'reqwest|HTTP client' }),
);

const MAVEN = merge(
  of('framework', {
    'org.springframework.boot:spring-boot-starter-web': 'Spring Boot',
    'org.springframework.boot:spring-boot-starter-webflux': 'Spring Boot',
    'io.quarkus:*': 'Quarkus',
    'io.micronaut:*': 'Micronaut',
  }),
  of('orm', {
    'org.springframework.boot:spring-boot-starter-data-jpa': 'Spring Data JPA',
    'org.hibernate.orm:hibernate-core': 'Hibernate',
    'org.hibernate:hibernate-core': 'Hibernate',
  }),
  of('migrations', { 'org.flywaydb:*': 'Flyway', 'org.liquibase:*': 'Liquibase' }),
  of('store', {
    'org.postgresql:postgresql': 'PostgreSQL',
    'com.mysql:mysql-connector-j': 'MySQL',
    'mysql:mysql-connector-java': 'MySQL',
    'com.h2database:h2': 'H2',
    'org.xerial:sqlite-jdbc': 'SQLite',
    'org.springframework.boot:spring-boot-starter-data-mongodb': 'MongoDB',
    'org.springframework.kafka:spring-kafka': 'Kafka',
    'org.apache.kafka:*': 'Kafka',
  }),
  of('cache', { 'org.springframework.boot:spring-boot-starter-data-redis': 'Redis' }),
  of('service', {
    'com.stripe:stripe-java': 'Stripe|payments',
    'com.twilio.sdk:twilio': 'Twilio|SMS',
    'com.sendgrid:sendgrid-java': 'SendGrid|email',
    'software.amazon.awssdk:*': 'AWS|cloud services',
    'com.amazonaws:*': 'AWS|cloud services',
    'io.sentry:*': 'Sentry|error reporting',
    'com.slack.api:*': 'Slack|messages',
  }),
  of('testing', {
    'org.junit.jupiter:*': 'JUnit',
    'junit:junit': 'JUnit',
    'org.springframework.boot:spring-boot-starter-test': 'Spring Boot Test',
    'org.mockito:*': 'Mockito',
  }),
);

const GEM = merge(
  of('framework', { rails: 'Rails', sinatra: 'Sinatra', hanami: 'Hanami', grape: 'Grape' }),
  of('orm', { rails: 'Active Record', activerecord: 'Active Record', sequel: 'Sequel' }),
  of('store', {
    pg: 'PostgreSQL',
    mysql2: 'MySQL',
    sqlite3: 'SQLite',
    mongoid: 'MongoDB',
    elasticsearch: 'Elasticsearch',
  }),
  of('cache', { redis: 'Redis' }),
  of('runtime', { puma: 'Puma' }),
  of('service', {
    stripe: 'Stripe|payments',
    'twilio-ruby': 'Twilio|SMS',
    'sendgrid-ruby': 'SendGrid|email',
    'slack-ruby-client': 'Slack|messages',
    'aws-sdk-*': 'AWS|cloud services',
    'sentry-ruby': 'Sentry|error reporting',
    'sentry-rails': 'Sentry|error reporting',
    'ruby-openai': 'OpenAI|AI models',
  }),
  of('testing', { rspec: 'RSpec', 'rspec-rails': 'RSpec', minitest: 'Minitest' }),
  of('library', { sidekiq: 'Sidekiq|background jobs', devise: 'Devise|authentication' }),
);

const COMPOSER = merge(
  of('framework', {
    'laravel/framework': 'Laravel',
    'symfony/framework-bundle': 'Symfony',
    'slim/slim': 'Slim',
  }),
  of('orm', { 'laravel/framework': 'Eloquent', 'doctrine/orm': 'Doctrine ORM' }),
  of('migrations', {
    'doctrine/migrations': 'Doctrine Migrations',
    'doctrine/doctrine-migrations-bundle': 'Doctrine Migrations',
  }),
  of('store', { 'mongodb/mongodb': 'MongoDB' }),
  of('cache', { 'predis/predis': 'Redis' }),
  of('service', {
    'stripe/stripe-php': 'Stripe|payments',
    'twilio/sdk': 'Twilio|SMS',
    'sendgrid/sendgrid': 'SendGrid|email',
    'aws/aws-sdk-php': 'AWS|cloud services',
    'sentry/sentry': 'Sentry|error reporting',
    'sentry/sentry-laravel': 'Sentry|error reporting',
    'openai-php/client': 'OpenAI|AI models',
  }),
  of('testing', { 'phpunit/phpunit': 'PHPUnit', 'pestphp/pest': 'Pest' }),
  of('library', {
    'guzzlehttp/guzzle': 'Guzzle|HTTP client',
    'laravel/sanctum': 'Sanctum|authentication',
  }),
);

/**
 * Every ecosystem's table, keyed by the package's name as the ecosystem compares it.
 *
 * @example
 * TABLES.npm.pg; // [{ name: 'PostgreSQL', kind: 'store' }]
 */
export const TABLES: Record<Ecosystem, Table> = {
  npm: NPM,
  pypi: PYPI,
  go: GO,
  cargo: CARGO,
  maven: MAVEN,
  gem: GEM,
  composer: COMPOSER,
};
