CREATE TABLE "provenance" (
	"project_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"engine" text NOT NULL,
	"prompt_version" text NOT NULL,
	"input_tokens" integer NOT NULL,
	"output_tokens" integer NOT NULL,
	"attempts" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"repairs" integer NOT NULL,
	"initial_findings" jsonb NOT NULL,
	"findings" jsonb NOT NULL,
	"trimmed" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provenance_project_id_kind_pk" PRIMARY KEY("project_id","kind")
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "type_requested" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "provenance" ADD CONSTRAINT "provenance_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;