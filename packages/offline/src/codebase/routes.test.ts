import { describe, expect, it } from 'vitest';
import { readRoutes } from './routes.ts';
import { resourceRoutes } from './routes-rails.ts';

const routes = (files: Record<string, string>) =>
  readRoutes(Object.entries(files).map(([path, content]) => ({ path, content }))).map(
    (r) => `${r.method} ${r.path} ${r.file}`,
  );

describe('readRoutes: JavaScript', () => {
  it('joins Express routers mounted through imports, defaults and require', () => {
    expect(
      routes({
        'src/app.js': [
          "const express = require('express');",
          "const users = require('./routes/users');",
          "import admin from './routes/admin/index.js';",
          'const app = express();',
          'const api = express.Router();',
          "api.use('/users', users);",
          "app.use('/api/v1/', auth, api);",
          "app.use('/admin', admin);",
          "app.get('/', home);",
        ].join('\n'),
        'src/routes/users.js': [
          "const router = require('express').Router();",
          "router.get('/', list);",
          "router.route('/:id').get(show).put(update);",
          'module.exports = router;',
        ].join('\n'),
        'src/routes/admin/index.js': [
          "import { Router } from 'express';",
          'const r = Router();',
          "r.post('/reports/', build);",
          'export default r;',
        ].join('\n'),
      }),
    ).toEqual([
      'GET / src/app.js',
      'GET /api/v1/users src/routes/users.js',
      'GET /api/v1/users/:id src/routes/users.js',
      'PUT /api/v1/users/:id src/routes/users.js',
      'POST /admin/reports src/routes/admin/index.js',
    ]);
  });

  it('reads Fastify plugins registered with a prefix and route() declarations', () => {
    expect(
      routes({
        'server.ts': [
          "import Fastify from 'fastify';",
          "import { invoices } from './invoices.ts';",
          'const app = Fastify();',
          "app.register(invoices, { prefix: '/invoices' });",
        ].join('\n'),
        'invoices.ts': [
          'export async function invoices(fastify) {',
          "  fastify.get('/', list);",
          "  fastify.route({ method: ['POST', 'PUT'], url: '/:id', handler });",
          '}',
        ].join('\n'),
      }),
    ).toEqual([
      'GET /invoices invoices.ts',
      'POST /invoices/:id invoices.ts',
      'PUT /invoices/:id invoices.ts',
    ]);
  });

  it('reads routes of plugins registered inside an encapsulated plugin with a prefix', () => {
    expect(
      routes({
        'src/app.ts': [
          "import Fastify from 'fastify';",
          "import { creditRoutes } from './routes/credits.ts';",
          'const app = Fastify();',
          "app.get('/health', h);",
          'await app.register(',
          '  async (api) => {',
          '    await api.register(creditRoutes, { db });',
          "    api.get('/me', me);",
          '  },',
          "  { prefix: '/api/v1' },",
          ');',
        ].join('\n'),
        'src/routes/credits.ts': [
          'export async function creditRoutes(app: FastifyInstance, options: Options) {',
          "  app.get('/credits', { schema }, list);",
          '}',
        ].join('\n'),
      }),
    ).toEqual([
      'GET /health src/app.ts',
      'GET /api/v1/me src/app.ts',
      'GET /api/v1/credits src/routes/credits.ts',
    ]);
  });

  it('reads Koa router prefixes, Next.js route handlers and skips HTTP clients and tests', () => {
    expect(
      routes({
        'src/books.js': [
          "const Router = require('@koa/router');",
          "const books = new Router({ prefix: '/books' });",
          "books.get('/:id', show);",
        ].join('\n'),
        'app/api/orders/[id]/route.ts':
          'export async function GET() {}\nexport const DELETE = h;\n',
        'app/(shop)/api/cart/route.ts': 'export function POST() {}\n',
        'web/src/client.ts':
          "import axios from 'axios';\nconst api = axios.create();\napi.get('/users');\n",
        'src/books.test.js': "app.get('/test-only', h);\n",
      }),
    ).toEqual([
      'GET /books/:id src/books.js',
      'GET /api/orders/[id] app/api/orders/[id]/route.ts',
      'DELETE /api/orders/[id] app/api/orders/[id]/route.ts',
      'POST /api/cart app/(shop)/api/cart/route.ts',
    ]);
  });
});

describe('readRoutes: Python', () => {
  it('joins FastAPI routers included with prefixes, through packages and aliases', () => {
    expect(
      routes({
        'src/shop/main.py': [
          'from fastapi import FastAPI',
          'from shop.api import router as api_router',
          'app = FastAPI()',
          'app.include_router(api_router, prefix="/api")',
          '@app.get("/health")',
          'def health(): ...',
        ].join('\n'),
        'src/shop/api/__init__.py': [
          'from fastapi import APIRouter',
          'from . import carts',
          'router = APIRouter()',
          'router.include_router(carts.router, prefix="/carts")',
        ].join('\n'),
        'src/shop/api/carts.py': [
          'from fastapi import APIRouter',
          'router = APIRouter()',
          '@router.api_route("/{cart_id}", methods=["GET", "PATCH"])',
          'def cart(cart_id: int): ...',
        ].join('\n'),
      }),
    ).toEqual([
      'GET /health src/shop/main.py',
      'GET /api/carts/{cart_id} src/shop/api/carts.py',
      'PATCH /api/carts/{cart_id} src/shop/api/carts.py',
    ]);
  });
});

describe('readRoutes: brace languages', () => {
  it('reads gin groups, gorilla/mux subrouters, Go 1.22 patterns and chi mounts', () => {
    expect(
      routes({
        'cmd/api/main.go': [
          'package main',
          'func main() {',
          '\tr := gin.Default()',
          '\tv1 := r.Group("/v1")',
          '\t{',
          '\t\tv1.GET("/trips/:id", getTrip)',
          '\t\tv1.POST("/trips", createTrip)',
          '\t}',
          '\tm := mux.NewRouter()',
          '\ts := m.PathPrefix("/products").Subrouter()',
          '\ts.HandleFunc("/{key}", product).Methods("GET", "DELETE")',
          '\thttp.HandleFunc("GET /healthz", health)',
          '\tc := chi.NewRouter()',
          '\tc.Mount("/admin", adminRouter())',
          '}',
        ].join('\n'),
        'cmd/api/admin.go': [
          'package main',
          'func adminRouter() http.Handler {',
          '\tr := chi.NewRouter()',
          '\tr.With(auth).Get("/stats", stats)',
          '\treturn r',
          '}',
        ].join('\n'),
      }),
    ).toEqual([
      'GET /v1/trips/:id cmd/api/main.go',
      'POST /v1/trips cmd/api/main.go',
      'GET /products/{key} cmd/api/main.go',
      'DELETE /products/{key} cmd/api/main.go',
      'GET /healthz cmd/api/main.go',
      'GET /admin/stats cmd/api/admin.go',
    ]);
  });

  it('reads actix-web and Rocket attribute routes with their scopes and mounts', () => {
    expect(
      routes({
        'src/main.rs': [
          '#[get("/hello/{name}")]',
          'async fn greet() -> impl Responder { "hi" }',
          '#[post("/orders")]',
          'async fn order() -> impl Responder { "ok" }',
          'fn main() {',
          '    App::new().service(web::scope("/api").route("/items", web::get().to(items))).service(greet);',
          '    rocket::build().mount("/shop", routes![order]);',
          '}',
        ].join('\n'),
      }),
    ).toEqual([
      'GET /hello/{name} src/main.rs',
      'POST /shop/orders src/main.rs',
      'GET /api/items src/main.rs',
    ]);
  });

  it('reads NestJS controllers under the global prefix', () => {
    expect(
      routes({
        'src/main.ts':
          "const app = await NestFactory.create(AppModule);\napp.setGlobalPrefix('api');\n",
        'src/cats/cats.controller.ts': [
          "@Controller('cats')",
          'export class CatsController {',
          '  @Get()',
          '  findAll() {}',
          "  @Post(':id/adopt')",
          '  adopt() {}',
          '}',
        ].join('\n'),
      }),
    ).toEqual([
      'GET /api/cats src/cats/cats.controller.ts',
      'POST /api/cats/:id/adopt src/cats/cats.controller.ts',
    ]);
  });

  it('reads Symfony attributes and JAX-RS annotations', () => {
    expect(
      routes({
        'src/Controller/LessonController.php': [
          '<?php',
          "#[Route('/lessons')]",
          'class LessonController {',
          "  #[Route('/{id}', name: 'lesson_show', methods: ['GET'])]",
          '  public function show() {}',
          '}',
        ].join('\n'),
        'src/main/java/Rooms.java': [
          '@Path("/rooms")',
          'public class Rooms {',
          '  @GET',
          '  @Path("/{id}")',
          '  public Room get() { return null; }',
          '}',
        ].join('\n'),
      }),
    ).toEqual([
      'GET /lessons/{id} src/Controller/LessonController.php',
      'GET /rooms/{id} src/main/java/Rooms.java',
    ]);
  });
});

describe('resourceRoutes', () => {
  it('expands Laravel nested API resources and Rails singular resources', () => {
    expect(
      resourceRoutes('laravel', 'photos.comments', { api: true, only: ['index', 'show'] }),
    ).toEqual([
      { method: 'GET', path: '/photos/{photo}/comments' },
      { method: 'GET', path: '/photos/{photo}/comments/{comment}' },
    ]);
    expect(
      resourceRoutes('rails', 'profile', { singular: true, except: ['new', 'edit', 'destroy'] }),
    ).toEqual([
      { method: 'POST', path: '/profile' },
      { method: 'GET', path: '/profile' },
      { method: 'PATCH', path: '/profile' },
      { method: 'PUT', path: '/profile' },
    ]);
  });
});
