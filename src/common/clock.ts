import { Injectable } from '@nestjs/common';

/**
 * The time the delivery loop and the report scheduler go by. The product uses the wall clock;
 * tests replace `now` on the one instance to compress hours of retries into milliseconds.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
