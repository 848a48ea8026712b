import { describe, expect, it } from 'vitest';
import { readEntities } from './schemas.ts';

const entities = (files: Record<string, string>) =>
  readEntities(Object.entries(files).map(([path, content]) => ({ path, content })));

describe('readEntities', () => {
  it('reads CREATE TABLE in any case, schema-qualified, quoted, with constraints left out', () => {
    expect(
      entities({
        'db/001.sql': [
          "-- the owners (it's a comment)",
          'CREATE TABLE IF NOT EXISTS "public"."Owners" (',
          '  "id" uuid PRIMARY KEY,',
          "  name text DEFAULT 'a, b',",
          '  total numeric(10, 2),',
          '  CONSTRAINT owners_name UNIQUE (name),',
          '  PRIMARY KEY (id)',
          ');',
          'create unlogged table `audit` (at timestamptz);',
          'ALTER TABLE owners ADD COLUMN email text;',
        ].join('\n'),
      }),
    ).toEqual([
      { name: 'Owners', file: 'db/001.sql', columns: ['id', 'name', 'total', 'email'] },
      { name: 'audit', file: 'db/001.sql', columns: ['at'] },
    ]);
  });

  it('reads Prisma models, TypeORM entities and Drizzle tables', () => {
    expect(
      entities({
        'prisma/schema.prisma': [
          'datasource db { provider = "postgresql" }',
          'model Appointment {',
          '  id      Int      @id',
          '  startsAt DateTime',
          '  @@map("appointments")',
          '}',
        ].join('\n'),
        'src/entities/team.ts': [
          "@Entity('teams')",
          'export class Team {',
          '  @PrimaryGeneratedColumn()',
          '  id!: number;',
          '  @Column({ length: 80 })',
          '  name!: string;',
          '  @ManyToOne(() => Plan, (plan) => plan.teams)',
          '  plan?: Plan;',
          '  helper(): void {}',
          '}',
        ].join('\n'),
        'src/db/schema.ts': [
          "export const seats = pgTable('seats', {",
          "  id: serial('id').primaryKey(),",
          "  teamId: integer('team_id').references(() => teams.id),",
          '});',
        ].join('\n'),
      }),
    ).toEqual([
      { name: 'seats', file: 'src/db/schema.ts', columns: ['id', 'teamId'] },
      { name: 'Appointment', file: 'prisma/schema.prisma', columns: ['id', 'startsAt'] },
      { name: 'teams', file: 'src/entities/team.ts', columns: ['id', 'name', 'plan'] },
    ]);
  });

  it('merges a table found in a migration with its model, keeping the migration name', () => {
    expect(
      entities({
        'migrations/001.sql': 'create table order_items (id int, qty int);',
        'app/models.py': [
          'class OrderItem(Base):',
          '    __tablename__ = "order_items"',
          '    id = Column(Integer)',
          '    price: Mapped[int] = mapped_column()',
          '',
          'class Helper:',
          '    pass',
        ].join('\n'),
        'src/order-item.entity.ts':
          '@Entity()\nexport class OrderItem {\n  @Column()\n  sku: string;\n}\n',
      }),
    ).toEqual([
      {
        name: 'order_items',
        file: 'migrations/001.sql',
        columns: ['id', 'qty', 'price', 'sku'],
        alsoIn: ['app/models.py', 'src/order-item.entity.ts'],
      },
    ]);
  });

  it('reads GORM structs, Diesel tables, Knex and Mongoose, and skips tests and docs', () => {
    expect(
      entities({
        'internal/models/trip.go':
          'type Trip struct {\n\tgorm.Model\n\tDriverID uint\n\tNote string `gorm:"size:200"`\n}\n',
        'src/schema.rs':
          'diesel::table! {\n    users (id) {\n        id -> Int4,\n        email -> Text,\n    }\n}\n',
        'migrations/1_init.js':
          "exports.up = (knex) => knex.schema.createTable('rides', (t) => { t.increments('id'); t.string('origin'); });\n",
        'src/models/rider.js':
          "const riderSchema = new mongoose.Schema({ name: String, rating: Number });\nmodule.exports = mongoose.model('Rider', riderSchema);\n",
        'test/fixtures.sql': 'create table fixtures (id int);',
        'README.md': 'create table docs (id int);',
      }),
    ).toEqual([
      { name: 'rides', file: 'migrations/1_init.js', columns: ['id', 'origin'] },
      { name: 'users', file: 'src/schema.rs', columns: ['id', 'email'] },
      { name: 'Trip', file: 'internal/models/trip.go', columns: ['DriverID', 'Note'] },
      { name: 'Rider', file: 'src/models/rider.js', columns: ['name', 'rating'] },
    ]);
  });
});
