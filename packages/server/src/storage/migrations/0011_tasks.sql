CREATE TABLE "project_task_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "project_task_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"project_id" uuid NOT NULL,
	"task_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"key_id" text,
	"agent" text,
	"assignee" text,
	"from_status" text,
	"to_status" text NOT NULL,
	"note" text
);
--> statement-breakpoint
CREATE TABLE "project_task_plans" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"revision" integer NOT NULL,
	"synced_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_tasks" (
	"project_id" uuid NOT NULL,
	"task_id" text NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"phase" text NOT NULL,
	"requirements" text[] NOT NULL,
	"criteria" text[] NOT NULL,
	"depends_on" text[] NOT NULL,
	"files" text[] NOT NULL,
	"estimate" text,
	"status" text DEFAULT 'todo' NOT NULL,
	"assignee" text,
	"lease_agent" text,
	"lease_expires_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_tasks_project_id_task_id_pk" PRIMARY KEY("project_id","task_id"),
	CONSTRAINT "project_tasks_status_check" CHECK ("project_tasks"."status" in ('todo', 'in_progress', 'blocked', 'done', 'obsolete'))
);
--> statement-breakpoint
ALTER TABLE "project_task_history" ADD CONSTRAINT "project_task_history_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_task_plans" ADD CONSTRAINT "project_task_plans_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_tasks" ADD CONSTRAINT "project_tasks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_task_history_task_idx" ON "project_task_history" USING btree ("project_id","task_id","id");--> statement-breakpoint
CREATE INDEX "project_tasks_order_idx" ON "project_tasks" USING btree ("project_id","position");