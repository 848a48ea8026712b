CREATE TABLE "account_conventions" (
	"account_id" text NOT NULL,
	"mode" text NOT NULL,
	"version" integer NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_conventions_account_id_mode_version_pk" PRIMARY KEY("account_id","mode","version")
);
--> statement-breakpoint
ALTER TABLE "project_revisions" ADD COLUMN "answers" jsonb;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "conventions_version" integer;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "requirement_style" text DEFAULT 'ears' NOT NULL;--> statement-breakpoint
ALTER TABLE "account_conventions" ADD CONSTRAINT "account_conventions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;