import { merge, of, type Table } from './known-table.ts';

/** The knowledge table of RubyGems (Gemfile) that say something about a system's shape. */
export const GEM: Table = merge(
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
