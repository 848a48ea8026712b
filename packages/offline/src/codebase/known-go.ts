import { merge, of, type Table } from './known-table.ts';

/** The knowledge table of Go modules (go.mod) that say something about a system's shape. */
export const GO: Table = merge(
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
