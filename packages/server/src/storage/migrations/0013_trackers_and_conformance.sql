CREATE TABLE "conformance_checks" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"status" text NOT NULL,
	"context" jsonb NOT NULL,
	"report" jsonb,
	"error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "project_syncs" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"connection_id" text NOT NULL,
	"scope" text NOT NULL,
	"dry_run" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tracker_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"mode" text NOT NULL,
	"provider" text NOT NULL,
	"name" text NOT NULL,
	"base_url" text,
	"target" jsonb NOT NULL,
	"credentials" text NOT NULL,
	"webhook_secret" text NOT NULL,
	"reconciled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracker_deliveries" (
	"connection_id" text NOT NULL,
	"delivery_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tracker_deliveries_connection_id_delivery_id_pk" PRIMARY KEY("connection_id","delivery_id")
);
--> statement-breakpoint
CREATE TABLE "tracker_links" (
	"connection_id" text NOT NULL,
	"project_id" uuid NOT NULL,
	"item_id" text NOT NULL,
	"external_id" text NOT NULL,
	"external_key" text NOT NULL,
	"url" text NOT NULL,
	"digest" text NOT NULL,
	"state" text NOT NULL,
	"external_updated_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tracker_links_connection_id_project_id_item_id_pk" PRIMARY KEY("connection_id","project_id","item_id")
);
--> statement-breakpoint
ALTER TABLE "conformance_checks" ADD CONSTRAINT "conformance_checks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_syncs" ADD CONSTRAINT "project_syncs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_syncs" ADD CONSTRAINT "project_syncs_connection_id_tracker_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."tracker_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_connections" ADD CONSTRAINT "tracker_connections_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_deliveries" ADD CONSTRAINT "tracker_deliveries_connection_id_tracker_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."tracker_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_links" ADD CONSTRAINT "tracker_links_connection_id_tracker_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."tracker_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_links" ADD CONSTRAINT "tracker_links_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conformance_checks_project_idx" ON "conformance_checks" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "project_syncs_project_idx" ON "project_syncs" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "tracker_connections_owner_idx" ON "tracker_connections" USING btree ("account_id","mode");--> statement-breakpoint
CREATE INDEX "tracker_links_external_idx" ON "tracker_links" USING btree ("connection_id","external_id");