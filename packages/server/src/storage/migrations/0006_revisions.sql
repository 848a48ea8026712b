CREATE TABLE "project_revisions" (
	"project_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"status" text NOT NULL,
	"change_request" text NOT NULL,
	"simulate" jsonb,
	"deltas" jsonb,
	"affected" jsonb,
	"questionnaire" jsonb,
	"register" jsonb,
	"retired" jsonb,
	"credits_reserved" integer DEFAULT 0 NOT NULL,
	"credits_consumed" integer,
	"generation_time_ms" integer,
	"error_code" text,
	"error_message" text,
	"estimated_completion_at" timestamp with time zone,
	"result_body" text,
	"result_etag" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "project_revisions_project_id_revision_pk" PRIMARY KEY("project_id","revision"),
	CONSTRAINT "project_revisions_status_check" CHECK ("project_revisions"."status" in ('in_progress', 'completed', 'failed'))
);--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "written_in" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "current_revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "revising" integer;--> statement-breakpoint
ALTER TABLE "provenance" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" DROP CONSTRAINT "documents_project_id_type_pk";--> statement-breakpoint
ALTER TABLE "provenance" DROP CONSTRAINT "provenance_project_id_kind_pk";--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_project_id_revision_type_pk" PRIMARY KEY("project_id","revision","type");--> statement-breakpoint
ALTER TABLE "provenance" ADD CONSTRAINT "provenance_project_id_revision_kind_pk" PRIMARY KEY("project_id","revision","kind");--> statement-breakpoint
ALTER TABLE "project_revisions" ADD CONSTRAINT "project_revisions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;