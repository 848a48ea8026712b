import { merge, of, type Table } from './known-table.ts';

/**
 * The knowledge table of Composer (composer.json): the PHP packages that say something about a
 * system's shape.
 */
export const COMPOSER: Table = merge(
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
