/**
 * Small repositories of the ecosystems the shared test repositories leave out (Rust/axum,
 * Java/Spring, Ruby/Rails, PHP/Laravel, Python/Flask with requirements.txt, Django), each with
 * what reading it must find and what it must not.
 */

export interface Case {
  name: string;
  files: Record<string, string>;
  expected: {
    stack: readonly string[];
    componentPaths: readonly string[];
    dataStores: readonly string[];
    externalServices: readonly string[];
    routes: readonly string[];
    entities: readonly string[];
    entryPoints?: readonly string[];
    testCommand?: string;
  };
  /** Names that must appear nowhere in the facts. */
  absent?: readonly string[];
}

const lines = (...text: string[]) => `${text.join('\n')}\n`;

export const RUST_AXUM: Case = {
  name: 'ledger-rs',
  files: {
    'Cargo.toml': lines(
      '[package]',
      'name = "ledger"',
      'edition = "2021"',
      'rust-version = "1.75"',
      '',
      '[dependencies]',
      'axum = "0.7"',
      'tokio = { version = "1", features = ["full"] }',
      'sqlx = { version = "0.7", features = ["runtime-tokio", "postgres"] }',
      'async-stripe = { version = "0.34" }',
      'serde = { version = "1", features = ["derive"] }',
    ),
    'src/main.rs': lines(
      'use axum::{routing::get, Router};',
      'mod routes;',
      '',
      '#[tokio::main]',
      'async fn main() {',
      '    let app = Router::new()',
      '        .route("/health", get(health))',
      '        .nest("/accounts", routes::accounts());',
      '    let listener = tokio::net::TcpListener::bind("0.0.0.0:3000").await.unwrap();',
      '    axum::serve(listener, app).await.unwrap();',
      '}',
      '',
      'async fn health() -> &\'static str { "ok" }',
    ),
    'src/routes.rs': lines(
      'use axum::{routing::get, Router};',
      'use stripe::Client;',
      '',
      'pub fn accounts() -> Router {',
      '    Router::new()',
      '        .route("/", get(list).post(create))',
      '        .route("/:id", get(show).delete(remove))',
      '}',
    ),
    'migrations/20240101_init.sql':
      'CREATE TABLE IF NOT EXISTS public.accounts (id BIGSERIAL PRIMARY KEY, "email" TEXT NOT NULL, CONSTRAINT accounts_email UNIQUE (email));\n',
  },
  expected: {
    stack: ['Rust', 'axum', 'Tokio', 'SQLx', 'PostgreSQL', 'Stripe'],
    componentPaths: ['src/routes.rs', 'migrations'],
    dataStores: ['PostgreSQL'],
    externalServices: ['Stripe'],
    routes: [
      'GET /health',
      'GET /accounts',
      'POST /accounts',
      'GET /accounts/:id',
      'DELETE /accounts/:id',
    ],
    entities: ['accounts'],
    entryPoints: ['src/main.rs'],
    testCommand: 'cargo test',
  },
};

export const JAVA_SPRING: Case = {
  name: 'shop-api',
  files: {
    'pom.xml': lines(
      '<project>',
      '  <parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent</artifactId><version>3.2.4</version></parent>',
      '  <properties><java.version>21</java.version><stripe.version>24.0.0</stripe.version></properties>',
      '  <dependencies>',
      '    <dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-web</artifactId></dependency>',
      '    <dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-data-jpa</artifactId></dependency>',
      '    <dependency><groupId>org.postgresql</groupId><artifactId>postgresql</artifactId><scope>runtime</scope></dependency>',
      // A Maven property reference, not a template placeholder.
      `    <dependency><groupId>com.stripe</groupId><artifactId>stripe-java</artifactId><version>${'$'}{stripe.version}</version></dependency>`,
      '    <!-- <dependency><groupId>com.twilio.sdk</groupId><artifactId>twilio</artifactId></dependency> -->',
      '    <dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-test</artifactId><scope>test</scope></dependency>',
      '  </dependencies>',
      '</project>',
    ),
    'src/main/java/com/acme/shop/ShopApplication.java': lines(
      'package com.acme.shop;',
      '@SpringBootApplication',
      'public class ShopApplication {',
      '  public static void main(String[] args) { SpringApplication.run(ShopApplication.class, args); }',
      '}',
    ),
    'src/main/java/com/acme/shop/controller/OrderController.java': lines(
      'package com.acme.shop.controller;',
      'import com.stripe.Stripe;',
      '@RestController',
      '@RequestMapping("/api/orders")',
      'public class OrderController {',
      '  @GetMapping',
      '  public List<Order> list() { return List.of(); }',
      '  @GetMapping("/{id}")',
      '  public Order get(@PathVariable Long id) { return null; }',
      '  @PostMapping',
      '  public Order create(@RequestBody Order order) { return order; }',
      '  @RequestMapping(value = "/{id}", method = RequestMethod.DELETE)',
      '  public void delete(@PathVariable Long id) {}',
      '}',
    ),
    'src/main/java/com/acme/shop/domain/Order.java': lines(
      'package com.acme.shop.domain;',
      '@Entity',
      '@Table(name = "orders")',
      'public class Order {',
      '  @Id @GeneratedValue',
      '  private Long id;',
      '  private String customerEmail;',
      '  private BigDecimal total;',
      '}',
    ),
    'src/main/resources/db/migration/V1__init.sql':
      'create table orders (id bigserial primary key, customer_email text, total numeric(10, 2));\n',
    'src/test/java/com/acme/shop/OrderControllerTest.java': 'class OrderControllerTest {}\n',
  },
  expected: {
    stack: ['Java', 'Spring Boot', 'Spring Data JPA', 'PostgreSQL', 'Stripe', 'Spring Boot Test'],
    componentPaths: [
      'src/main/java/com/acme/shop/controller',
      'src/main/java/com/acme/shop/domain',
    ],
    dataStores: ['PostgreSQL'],
    externalServices: ['Stripe'],
    routes: [
      'GET /api/orders',
      'GET /api/orders/{id}',
      'POST /api/orders',
      'DELETE /api/orders/{id}',
    ],
    entities: ['orders'],
    entryPoints: ['src/main/java/com/acme/shop/ShopApplication.java'],
    testCommand: 'mvn test',
  },
  absent: ['Twilio'],
};

export const RUBY_RAILS: Case = {
  name: 'billing-rails',
  files: {
    Gemfile: lines(
      "source 'https://rubygems.org'",
      "ruby '3.3.0'",
      "gem 'rails', '~> 7.1.3'",
      "gem 'pg', '~> 1.5'",
      "gem 'puma'",
      "gem 'sidekiq'",
      "gem 'stripe'",
      'group :development, :test do',
      "  gem 'rspec-rails'",
      'end',
    ),
    'config/routes.rb': lines(
      'Rails.application.routes.draw do',
      "  root 'home#index'",
      '  resources :invoices, only: [:index, :show, :create] do',
      '    resources :payments, only: [:create]',
      '  end',
      '  namespace :admin do',
      '    resources :customers',
      '  end',
      "  get '/health', to: 'health#show'",
      'end',
    ),
    'db/schema.rb': lines(
      'ActiveRecord::Schema[7.1].define(version: 2024_01_01_000000) do',
      '  create_table "customers", force: :cascade do |t|',
      '    t.string "email", null: false',
      '    t.timestamps',
      '  end',
      '  create_table "invoices", force: :cascade do |t|',
      '    t.references "customer"',
      '    t.integer "amount_cents"',
      '  end',
      'end',
    ),
    'config/database.yml': lines('default: &default', '  adapter: postgresql'),
    'app/controllers/invoices_controller.rb':
      'class InvoicesController < ApplicationController\n  def index; end\nend\n',
    'app/models/invoice.rb': 'class Invoice < ApplicationRecord\n  belongs_to :customer\nend\n',
    'app/jobs/charge_job.rb': "require 'stripe'\n\nclass ChargeJob < ApplicationJob\nend\n",
    'spec/models/invoice_spec.rb': "require 'rails_helper'\n",
  },
  expected: {
    stack: ['Ruby', 'Rails', 'Active Record', 'PostgreSQL', 'Puma', 'RSpec', 'Stripe', 'Sidekiq'],
    componentPaths: ['app/controllers', 'app/models', 'app/jobs'],
    dataStores: ['PostgreSQL'],
    externalServices: ['Stripe'],
    routes: [
      'GET /',
      'GET /invoices',
      'GET /invoices/:id',
      'POST /invoices',
      'POST /invoices/:invoice_id/payments',
      'GET /admin/customers',
      'GET /admin/customers/new',
      'POST /admin/customers',
      'GET /admin/customers/:id/edit',
      'PATCH /admin/customers/:id',
      'DELETE /admin/customers/:id',
      'GET /health',
    ],
    entities: ['customers', 'invoices'],
    testCommand: 'bundle exec rspec',
  },
};

export const PHP_LARAVEL: Case = {
  name: 'rooms-laravel',
  files: {
    'composer.json': JSON.stringify({
      require: {
        php: '^8.2',
        'laravel/framework': '^11.0',
        'stripe/stripe-php': '^13.0',
        'predis/predis': '^2.2',
      },
      'require-dev': { 'phpunit/phpunit': '^10.5' },
    }),
    'routes/api.php': lines(
      '<?php',
      'use Illuminate\\Support\\Facades\\Route;',
      "Route::get('/bookings', [BookingController::class, 'index']);",
      "Route::post('/bookings', [BookingController::class, 'store']);",
      "Route::prefix('admin')->group(function () {",
      "    Route::apiResource('rooms', RoomController::class);",
      '});',
    ),
    'routes/web.php': "<?php\nRoute::get('/', fn () => view('welcome'));\n",
    'config/database.php': "<?php\nreturn ['default' => env('DB_CONNECTION', 'mysql')];\n",
    'database/migrations/2024_01_01_000000_create_bookings_table.php': lines(
      '<?php',
      "Schema::create('bookings', function (Blueprint $table) {",
      '    $table->id();',
      "    $table->foreignId('room_id');",
      "    $table->dateTime('starts_at');",
      '    $table->timestamps();',
      '});',
    ),
    'app/Http/Controllers/BookingController.php':
      '<?php\nnamespace App\\Http\\Controllers;\nuse Stripe\\StripeClient;\nclass BookingController extends Controller {}\n',
    'app/Models/Booking.php': '<?php\nclass Booking extends Model {}\n',
  },
  expected: {
    stack: ['PHP', 'Laravel', 'Eloquent', 'Redis', 'Stripe', 'PHPUnit', 'MySQL'],
    componentPaths: ['app/Http/Controllers', 'app/Models', 'database/migrations'],
    dataStores: ['MySQL', 'Redis'],
    externalServices: ['Stripe'],
    routes: [
      'GET /api/bookings',
      'POST /api/bookings',
      'GET /api/admin/rooms',
      'POST /api/admin/rooms',
      'GET /api/admin/rooms/{room}',
      'PUT /api/admin/rooms/{room}',
      'DELETE /api/admin/rooms/{room}',
      'GET /',
    ],
    entities: ['bookings'],
    testCommand: 'vendor/bin/phpunit',
  },
};

export const PYTHON_FLASK: Case = {
  name: 'clinic-flask',
  files: {
    'requirements.txt': lines(
      'Flask==3.0.2',
      'Flask-SQLAlchemy>=3.1',
      'psycopg2-binary==2.9.9',
      'twilio>=8.0  # SMS reminders',
      '-r requirements-dev.txt',
    ),
    'requirements-dev.txt': 'pytest==8.1.1\n',
    'clinic/__init__.py': lines(
      'from flask import Flask',
      '',
      'def create_app():',
      '    app = Flask(__name__)',
      '    from .views import bp',
      '    app.register_blueprint(bp, url_prefix="/api")',
      '    return app',
    ),
    'clinic/views.py': lines(
      'from flask import Blueprint',
      '',
      'bp = Blueprint("visits", __name__, url_prefix="/visits")',
      '',
      '@bp.route("/", methods=["GET", "POST"])',
      'def visits():',
      '    return []',
      '',
      '@bp.route("/<int:visit_id>")',
      'def visit(visit_id):',
      '    return {}',
      '',
      '@bp.delete("/<int:visit_id>")',
      'def cancel(visit_id):',
      '    return "", 204',
    ),
    'clinic/models.py': lines(
      'from flask_sqlalchemy import SQLAlchemy',
      'db = SQLAlchemy()',
      '',
      'class Visit(db.Model):',
      '    __tablename__ = "visits"',
      '    id = db.Column(db.Integer, primary_key=True)',
      '    patient = db.Column(db.String)',
    ),
    'clinic/sms.py':
      'from twilio.rest import Client\n\ndef remind(visit):\n    Client().messages.create(body="x")\n',
    'tests/test_visits.py': 'def test_visits():\n    assert True\n',
  },
  expected: {
    stack: ['Python', 'Flask', 'SQLAlchemy', 'PostgreSQL', 'Twilio', 'pytest'],
    componentPaths: ['clinic/views.py', 'clinic/models.py', 'clinic/sms.py'],
    dataStores: ['PostgreSQL'],
    externalServices: ['Twilio'],
    routes: [
      'GET /api/visits',
      'POST /api/visits',
      'GET /api/visits/<int:visit_id>',
      'DELETE /api/visits/<int:visit_id>',
    ],
    entities: ['visits'],
    entryPoints: ['clinic/__init__.py'],
    testCommand: 'pytest',
  },
};

export const PYTHON_DJANGO: Case = {
  name: 'vet-django',
  files: {
    'requirements.txt': lines(
      'Django>=5.0,<5.1',
      'djangorestframework==3.15.1',
      'mysqlclient==2.2.4',
      'celery[redis]==5.3.6',
      'sentry-sdk==1.40.0',
    ),
    'manage.py': lines(
      'import sys',
      'if __name__ == "__main__":',
      '    from django.core.management import execute_from_command_line',
      '    execute_from_command_line(sys.argv)',
    ),
    'clinic_site/__init__.py': '',
    'clinic_site/settings.py':
      'DATABASES = {"default": {"ENGINE": "django.db.backends.mysql", "NAME": "vet"}}\n',
    'clinic_site/urls.py': lines(
      'from django.contrib import admin',
      'from django.urls import include, path',
      'urlpatterns = [',
      '    path("admin/", admin.site.urls),',
      '    path("api/patients/", include("patients.urls")),',
      ']',
    ),
    'patients/__init__.py': '',
    'patients/urls.py': lines(
      'from django.urls import path, re_path',
      'from . import views',
      'urlpatterns = [',
      '    path("", views.index),',
      '    path("<int:pk>/", views.detail),',
      '    re_path(r"^search/$", views.search),',
      ']',
    ),
    'patients/models.py': lines(
      'from django.db import models',
      '',
      'class Stamped(models.Model):',
      '    created = models.DateTimeField(auto_now_add=True)',
      '    class Meta:',
      '        abstract = True',
      '',
      'class Patient(models.Model):',
      '    name = models.CharField(max_length=100)',
      '    owner = models.ForeignKey("auth.User", on_delete=models.CASCADE)',
    ),
    'patients/views.py': 'def index(request):\n    pass\n',
  },
  expected: {
    stack: ['Python', 'Django', 'Django ORM', 'Django REST framework', 'MySQL', 'Celery', 'Sentry'],
    componentPaths: ['patients/models.py', 'patients/views.py', 'patients/urls.py'],
    dataStores: ['MySQL'],
    externalServices: ['Sentry'],
    routes: [
      'ANY /admin',
      'ANY /api/patients',
      'ANY /api/patients/<int:pk>',
      'ANY /api/patients/search',
    ],
    entities: ['Patient'],
    entryPoints: ['manage.py'],
  },
  absent: ['Stamped', 'PostgreSQL'],
};

export const CASES: readonly Case[] = [
  RUST_AXUM,
  JAVA_SPRING,
  RUBY_RAILS,
  PHP_LARAVEL,
  PYTHON_FLASK,
  PYTHON_DJANGO,
];
